module layered

go 1.26
