module github.com/riverqueue/river

go 1.26
