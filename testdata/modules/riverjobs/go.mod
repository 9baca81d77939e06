module riverjobs

go 1.26

require github.com/riverqueue/river v0.0.0

replace github.com/riverqueue/river => ../oncejobs/riverstub
