module github.com/stripe/stripe-go/v82

go 1.26
