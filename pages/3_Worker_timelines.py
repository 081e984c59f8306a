from loaderlab.ui.timelines_page import main

main()
