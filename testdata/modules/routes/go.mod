module routes

go 1.26
