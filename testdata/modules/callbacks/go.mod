module callbacks

go 1.26
