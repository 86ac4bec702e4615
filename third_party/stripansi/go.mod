module github.com/acarl005/stripansi

go 1.21
