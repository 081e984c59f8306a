from loaderlab.ui.distributed_page import main

main()
