module hidden

go 1.26
