import ThumbgenCLI
ThumbgenMain.run()
