from loaderlab.ui.queues_page import main

main()
