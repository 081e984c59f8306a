"""The Streamlit layer: the only package that imports streamlit. Pages wire widgets to functions."""
