module webhooks

go 1.26

require github.com/stripe/stripe-go/v82 v82.0.0

replace github.com/stripe/stripe-go/v82 => ./stripestub
