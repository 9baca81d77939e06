module webhooks

go 1.26

require (
	github.com/gin-gonic/gin v1.0.0
	github.com/stripe/stripe-go/v82 v82.0.0
)

replace github.com/stripe/stripe-go/v82 => ./stripestub

replace github.com/gin-gonic/gin => ./ginstub
