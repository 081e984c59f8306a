from loaderlab.ui.sampling_page import main

main()
