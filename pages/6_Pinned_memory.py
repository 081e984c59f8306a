from loaderlab.ui.transfer_page import main

main()
