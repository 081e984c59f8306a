from loaderlab.ui.padding_page import main

main()
