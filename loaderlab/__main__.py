"""``python -m loaderlab``: the command line (see :mod:`loaderlab.cli`)."""

# Guarded because spawn / forkserver workers import the parent's main module again (as __mp_main__).
if __name__ == "__main__":
    from loaderlab.cli import main

    raise SystemExit(main())
