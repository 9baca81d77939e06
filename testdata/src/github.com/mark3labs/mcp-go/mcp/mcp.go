// Package mcp is a stub of github.com/mark3labs/mcp-go/mcp v1.2.1: the request and result
// types of the client methods the model names (fields left out).
package mcp

// GetPromptRequest asks for a prompt.
type GetPromptRequest struct{}

// GetPromptResult is a prompt.
type GetPromptResult struct{}

// ListPromptsRequest lists prompts.
type ListPromptsRequest struct{}

// ListPromptsResult is a page of prompts.
type ListPromptsResult struct{}

// ListToolsRequest lists tools.
type ListToolsRequest struct{}

// ListToolsResult is a page of tools.
type ListToolsResult struct{}

// ListResourcesRequest lists resources.
type ListResourcesRequest struct{}

// ListResourcesResult is a page of resources.
type ListResourcesResult struct{}

// ReadResourceRequest reads a resource.
type ReadResourceRequest struct{}

// ReadResourceResult is a resource's contents.
type ReadResourceResult struct{}

// CallToolRequest calls a tool.
type CallToolRequest struct{}

// CallToolResult is a tool's result.
type CallToolResult struct{}
