// Package console links a resource to its page in its cloud's web
// console, from what the history knows of it: provider, resource id,
// region and type. An id it cannot place gets no link rather than a wrong
// one.
package console

import (
	"net/url"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// URL is the console page of a resource, or "".
func URL(p model.ProviderKey, id, region string) string {
	if id == "" {
		return ""
	}
	switch p {
	case model.AWS:
		return awsURL(id, region)
	case model.Azure:
		if strings.HasPrefix(strings.ToLower(id), "/subscriptions/") {
			return "https://portal.azure.com/#resource" + id
		}
	case model.GCP:
		return gcpURL(id)
	case model.OCI:
		if strings.HasPrefix(id, "ocid1.") {
			q := ""
			if region != "" {
				q = "?region=" + url.QueryEscape(region)
			}
			return "https://cloud.oracle.com/search?q=" + url.QueryEscape(id) + strings.Replace(q, "?", "&", 1)
		}
	}
	return ""
}

// awsURL: EC2 instances and volumes by id, anything with an ARN through
// the resource search, which takes any ARN.
func awsURL(id, region string) string {
	if region == "" {
		region = "us-east-1"
	}
	base := "https://" + region + ".console.aws.amazon.com/"
	switch {
	case strings.HasPrefix(id, "i-"):
		return base + "ec2/home?region=" + region + "#InstanceDetails:instanceId=" + url.QueryEscape(id)
	case strings.HasPrefix(id, "vol-"):
		return base + "ec2/home?region=" + region + "#VolumeDetails:volumeId=" + url.QueryEscape(id)
	case strings.HasPrefix(id, "arn:"):
		if parts := strings.Split(id, ":"); len(parts) > 3 && parts[3] != "" {
			region = parts[3]
		}
		return "https://" + region + ".console.aws.amazon.com/resource-groups/search?region=" + region +
			"#query=" + url.QueryEscape(id)
	}
	return ""
}

// gcpURL: Compute Engine instances and disks by their path
// (projects/P/zones/Z/instances/N), else the project's search.
func gcpURL(id string) string {
	p := strings.Split(strings.TrimPrefix(strings.TrimPrefix(id, "//compute.googleapis.com/"), "/"), "/")
	if len(p) == 6 && p[0] == "projects" && p[2] == "zones" {
		switch p[4] {
		case "instances":
			return "https://console.cloud.google.com/compute/instancesDetail/zones/" + p[3] + "/instances/" + p[5] + "?project=" + p[1]
		case "disks":
			return "https://console.cloud.google.com/compute/disksDetail/zones/" + p[3] + "/disks/" + p[5] + "?project=" + p[1]
		}
	}
	if len(p) >= 2 && p[0] == "projects" {
		return "https://console.cloud.google.com/search;q=" + url.PathEscape(id) + "?project=" + p[1]
	}
	return ""
}
