// Package mcp exercises the mcp-go model: prompt, tool and resource reads are no effects; // want package:"has effects"
// a tool call is the POST it is.
package mcp

import (
	"context"

	"github.com/hibiken/asynq"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

var c *client.Client

func Prompt(ctx context.Context, t *asynq.Task) error {
	if err := c.Ping(ctx); err != nil {
		return err
	}
	if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
		return err
	}
	_, err := c.GetPrompt(ctx, mcp.GetPromptRequest{})
	return err
}

func RunTool(ctx context.Context, t *asynq.Task) error { // want RunTool:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	_, err := c.CallTool(ctx, mcp.CallToolRequest{}) // want `handler RunTool: HTTP POST without an Idempotency-Key header \(RunTool -> \(\*client.Client\).CallTool`
	return err
}
