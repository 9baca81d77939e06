// Package client is a stub of github.com/mark3labs/mcp-go/client v1.2.1. Like the real
// client, every call is a JSON-RPC request POSTed by the transport, whose method the stub
// passes as a parameter: only the model says which ones read.
package client

import (
	"context"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// Client is an MCP client.
type Client struct{ url string }

func (c *Client) send(ctx context.Context, method string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, strings.NewReader(method))
	if err != nil {
		return err
	}
	_, err = http.DefaultClient.Do(req)
	return err
}

// Ping checks the server.
func (c *Client) Ping(ctx context.Context) error { return c.send(ctx, "ping") }

// GetPrompt gets a prompt.
func (c *Client) GetPrompt(ctx context.Context, request mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	return nil, c.send(ctx, "prompts/get")
}

// ListPrompts lists prompts.
func (c *Client) ListPrompts(ctx context.Context, request mcp.ListPromptsRequest) (*mcp.ListPromptsResult, error) {
	return nil, c.send(ctx, "prompts/list")
}

// ListTools lists tools.
func (c *Client) ListTools(ctx context.Context, request mcp.ListToolsRequest) (*mcp.ListToolsResult, error) {
	return nil, c.send(ctx, "tools/list")
}

// ListResources lists resources.
func (c *Client) ListResources(ctx context.Context, request mcp.ListResourcesRequest) (*mcp.ListResourcesResult, error) {
	return nil, c.send(ctx, "resources/list")
}

// ReadResource reads a resource.
func (c *Client) ReadResource(ctx context.Context, request mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	return nil, c.send(ctx, "resources/read")
}

// CallTool calls a tool, which may do anything.
func (c *Client) CallTool(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return nil, c.send(ctx, "tools/call")
}
