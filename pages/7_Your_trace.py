from loaderlab.ui.trace_page import main

main()
