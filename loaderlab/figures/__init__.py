"""Figure builders: pure functions from tidy tables to plotly figures. No streamlit here."""
