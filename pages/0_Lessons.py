from loaderlab.ui.lessons_page import main

main()
