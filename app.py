"""LoaderLab's entry script: ``streamlit run app.py``.

Thin on purpose: with spawn/forkserver a worker re-runs the entry script as ``__mp_main__``, so nothing
happens here unless this file is the script Streamlit runs.
"""

if __name__ == "__main__":
    from loaderlab.ui.home import main

    main()
