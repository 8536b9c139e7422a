// Package live registers the connectors that pull data from the clouds'
// APIs (source: api, and athena for AWS) and from the AI vendors' cost
// APIs (OpenAI, Anthropic). It is the one place that imports the four
// SDKs, so a build that leaves it out stays small.
package live

import (
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/anthropic"
	"github.com/costpilot/costpilot/backend/provider/athena"
	"github.com/costpilot/costpilot/backend/provider/aws"
	"github.com/costpilot/costpilot/backend/provider/azure"
	"github.com/costpilot/costpilot/backend/provider/gcp"
	"github.com/costpilot/costpilot/backend/provider/oci"
	"github.com/costpilot/costpilot/backend/provider/openai"
)

// Register adds the source "api" factory of every cloud and of the
// OpenAI and Anthropic cost APIs to r, and AWS's source "athena".
func Register(r *provider.Registry) {
	r.Register(model.AWS, model.SourceAPI, aws.Factory)
	r.Register(model.AWS, model.SourceAthena, athena.Factory)
	r.Register(model.Azure, model.SourceAPI, azure.Factory)
	r.Register(model.GCP, model.SourceAPI, gcp.Factory)
	r.Register(model.OCI, model.SourceAPI, oci.Factory)
	r.Register(openai.Key, model.SourceAPI, openai.Factory)
	r.Register(anthropic.Key, model.SourceAPI, anthropic.Factory)
}
