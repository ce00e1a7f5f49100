// Package provider is pulumi-nfv's own build of the Pulumi OpenStack provider: a
// pulumi-terraform-bridge wrapper around the Terraform OpenStack provider, built because the Go
// module proxy refuses Pulumi's module (github.com/pulumi/pulumi-openstack/provider/v3, every
// version). It bridges the same Terraform provider release that pulumi-openstack 3.15.2 bridged
// (terraform-provider-openstack v1.54.1) and maps it to exactly the tokens and property names of
// the npm SDK @pulumi/openstack 3.15.2, so the project's code uses that SDK unchanged.
//
// The tokens come from mapping_gen.go (cmd/gen-mapping, derived from the SDK's files); property
// names are the bridge's default camelCase names except the overrides in resourceFields, which
// the SDK needs. See ../README.md for what differs from Pulumi's binary.
package provider

import (
	"github.com/pulumi/pulumi-terraform-bridge/v3/pkg/tfbridge"
	shimv2 "github.com/pulumi/pulumi-terraform-bridge/v3/pkg/tfshim/sdk-v2"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/terraform-provider-openstack/terraform-provider-openstack/openstack"
)

// TFProviderVersion is the release of terraform-provider-openstack in go.mod.
const TFProviderVersion = "1.54.1"

// resourceFields: property names the SDK uses that the default naming would not give.
var resourceFields = map[string]map[string]*tfbridge.SchemaInfo{
	// Both blocks would be "allocationPools" by default.
	"openstack_networking_subnet_v2": {
		"allocation_pool":  {Name: "allocationPools"},
		"allocation_pools": {Name: "allocationPoolsCollection"},
	},
	// MaxItems 1 in Terraform (flattened to a string by default); an array in the SDK, as before
	// Terraform set MaxItems.
	"openstack_compute_servergroup_v2": {
		"policies": {MaxItemsOne: tfbridge.False()},
	},
	// The SDK's StackV1 has `StackOutputs` (capital S) for the block `outputs`.
	"openstack_orchestration_stack_v1": {
		"outputs": {Name: "StackOutputs"},
	},
}

// Fields returns the property overrides of Terraform resource tfName (used by cmd/gen-mapping).
func Fields(tfName string) map[string]*tfbridge.SchemaInfo { return resourceFields[tfName] }

// configEnv: provider settings the SDK reads from the environment when they are not set (the
// ones whose schema carries a default), as the SDK's provider.js does.
var configEnv = map[string]string{
	"allow_reauth":  "OS_ALLOW_REAUTH",
	"cloud":         "OS_CLOUD",
	"delayed_auth":  "OS_DELAYED_AUTH",
	"endpoint_type": "OS_ENDPOINT_TYPE",
	"insecure":      "OS_INSECURE",
	"region":        "OS_REGION_NAME",
	"swauth":        "OS_SWAUTH",
	"use_octavia":   "OS_USE_OCTAVIA",
}

// Provider returns the bridge's description of the provider. metadata is the content of
// bridge-metadata.json as written by the tfgen binary (nil at tfgen time).
func Provider(metadata []byte) tfbridge.ProviderInfo {
	if metadata == nil {
		metadata = []byte("{}")
	}
	tf := openstack.Provider()
	info := tfbridge.ProviderInfo{
		P:                 shimv2.NewProvider(tf),
		Name:              "openstack",
		DisplayName:       "OpenStack",
		Description:       "A Pulumi package for creating and managing OpenStack cloud resources.",
		Keywords:          []string{"pulumi", "openstack"},
		License:           "Apache-2.0",
		Homepage:          "https://pulumi.io",
		Repository:        "https://github.com/pulumi/pulumi-openstack",
		GitHubOrg:         "terraform-provider-openstack",
		TFProviderVersion: TFProviderVersion,
		Config: map[string]*tfbridge.SchemaInfo{
			"password": {Secret: tfbridge.True()},
		},
		Resources:      map[string]*tfbridge.ResourceInfo{},
		DataSources:    map[string]*tfbridge.DataSourceInfo{},
		IgnoreMappings: unmapped,
		MetadataInfo:   tfbridge.NewProviderMetadata(metadata),
	}
	for k, env := range configEnv {
		info.Config[k] = &tfbridge.SchemaInfo{Default: &tfbridge.DefaultInfo{EnvVars: []string{env}}}
	}
	for tfName, tok := range resourceTokens {
		ri := &tfbridge.ResourceInfo{Tok: tokens.Type(tok), Fields: map[string]*tfbridge.SchemaInfo{}}
		for k, v := range resourceFields[tfName] {
			ri.Fields[k] = v
		}
		// Auto-naming, as pulumi-openstack does: a resource whose `name` is an input gets
		// "<resource name>-<random>" (at most 255 characters) when the program sets none.
		if res, ok := tf.ResourcesMap[tfName]; ok {
			if s, ok := res.Schema["name"]; ok && (s.Optional || s.Required) && ri.Fields["name"] == nil {
				ri.Fields["name"] = tfbridge.AutoName("name", 255, "-")
			}
		}
		info.Resources[tfName] = ri
	}
	for tfName, tok := range dataSourceTokens {
		info.DataSources[tfName] = &tfbridge.DataSourceInfo{Tok: tokens.ModuleMember(tok)}
	}
	info.MustApplyAutoAliases()
	return info
}
