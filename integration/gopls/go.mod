module github.com/chokaq/idemlint/integration/gopls

go 1.26.0
