// Package scopes keeps the notification state of the package conditionalupdates: a // want package:"has effects"
// conditional UpdateItem that sets the episode its condition tests is not there claims it,
// and the helper turns the failed condition into false, on the client or on an interface
// of the package's own that mirrors it (to be mocked); one that tests another attribute
// claims nothing.
package scopes

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Store is the scopes table.
type Store struct{ DB *dynamodb.Client }

// ClaimEpisode marks an episode notified once: true when this call did.
func (s *Store) ClaimEpisode(ctx context.Context, key, episode string) (bool, error) { // want ClaimEpisode:`claims\(result 0\)`
	_, err := s.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("scopes"),
		UpdateExpression:    aws.String("SET lastEpisode = :ep, updatedAt = :now"),
		ConditionExpression: aws.String("attribute_not_exists(lastEpisode) OR lastEpisode <> :ep"),
	})
	if err != nil {
		var cfe *types.ConditionalCheckFailedException
		if errors.As(err, &cfe) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// Seen counts a sighting of a scope not deleted: its condition holds again on a repeat, so
// it claims nothing, and the count is added again.
func (s *Store) Seen(ctx context.Context, key string) (bool, error) { // want Seen:`effects store.write:unprotected\(\(\*dynamodb.Client\).UpdateItem\)`
	_, err := s.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("scopes"),
		UpdateExpression:    aws.String("SET hits = hits + :one"),
		ConditionExpression: aws.String("attribute_not_exists(deletedAt)"),
	})
	if err != nil {
		var cfe *types.ConditionalCheckFailedException
		if errors.As(err, &cfe) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// API is the part of *dynamodb.Client the package uses, so that tests can mock it.
type API interface {
	UpdateItem(ctx context.Context, params *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
}

// Mirror is the scopes table behind API.
type Mirror struct{ DB API }

// ClaimEpisode marks an episode notified once through the interface: true when this call
// did.
func (m *Mirror) ClaimEpisode(ctx context.Context, key, episode string) (bool, error) { // want ClaimEpisode:`claims\(result 0\)`
	_, err := m.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("scopes"),
		UpdateExpression:    aws.String("SET lastEpisode = :ep"),
		ConditionExpression: aws.String("attribute_not_exists(lastEpisode) OR lastEpisode <> :ep"),
	})
	if err != nil {
		var cfe *types.ConditionalCheckFailedException
		if errors.As(err, &cfe) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// Visit counts a first visit: the condition tests the attribute the update sets, so a
// repeat fails it and the count is not added again.
func (s *Store) Visit(ctx context.Context, key string) error { // want Visit:`effects store.write:protected\(\(\*dynamodb.Client\).UpdateItem\)`
	_, err := s.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("scopes"),
		UpdateExpression:    aws.String("SET visitedAt = :now ADD visits :one"),
		ConditionExpression: aws.String("attribute_not_exists(visitedAt)"),
	})
	return err
}
