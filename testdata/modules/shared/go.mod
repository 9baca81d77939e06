module shared

go 1.26
