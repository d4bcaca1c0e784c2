"""`python -m service.i18n [--update]`: the catalogues' check (and update), catalogue.py."""

from .catalogue import main

main()
