from loaderlab.ui.room_page import main

main()
