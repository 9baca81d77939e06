// Package events is a stub of github.com/aws/aws-lambda-go/events v1.55.1 for the
// analyzer tests: the event types of synchronous invocations (sync_events in the
// Lambda model) and one asynchronous one, with a field each. apicheck keeps it in
// step with the real API.
package events

// APIGatewayProxyRequest is an API Gateway REST API (v1) request.
type APIGatewayProxyRequest struct {
	Body string `json:"body"`
}

// APIGatewayProxyResponse is the answer to an APIGatewayProxyRequest.
type APIGatewayProxyResponse struct {
	StatusCode int `json:"statusCode"`
}

// APIGatewayV2HTTPRequest is an API Gateway HTTP API (v2) request.
type APIGatewayV2HTTPRequest struct {
	Body string `json:"body"`
}

// APIGatewayV2HTTPResponse is the answer to an APIGatewayV2HTTPRequest.
type APIGatewayV2HTTPResponse struct {
	StatusCode int `json:"statusCode"`
}

// SQSEvent is a batch of SQS messages (an event-source mapping: at least once).
type SQSEvent struct {
	Records []SQSMessage `json:"Records"`
}

// SQSMessage is one SQS message.
type SQSMessage struct {
	MessageId string `json:"messageId"`
	Body      string `json:"body"`
}

// APIGatewayWebsocketProxyRequest is an API Gateway WebSocket API request.
type APIGatewayWebsocketProxyRequest struct {
	Path string `json:"path,omitempty"`
}

// APIGatewayCustomAuthorizerRequest is a token authorizer's request.
type APIGatewayCustomAuthorizerRequest struct {
	Type string `json:"type"`
}

// APIGatewayCustomAuthorizerRequestTypeRequest is a request authorizer's request.
type APIGatewayCustomAuthorizerRequestTypeRequest struct {
	Type string `json:"type"`
}

// ALBTargetGroupRequest is an application load balancer's request.
type ALBTargetGroupRequest struct {
	Path string `json:"path"`
}

// LambdaFunctionURLRequest is a function URL's request.
type LambdaFunctionURLRequest struct {
	RawPath string `json:"rawPath"`
}
