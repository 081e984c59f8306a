from loaderlab.ui.events_page import main

main()
