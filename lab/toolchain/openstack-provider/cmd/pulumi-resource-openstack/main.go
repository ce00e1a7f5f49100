// pulumi-resource-openstack, as built by pulumi-nfv's lab: the Terraform OpenStack provider
// bridged with pulumi-terraform-bridge (see ../../provider.go and ../../../README.md). The two
// embedded files are written by pulumi-tfgen-openstack at build time (build.sh):
//
//	pulumi-tfgen-openstack schema --out cmd/pulumi-resource-openstack
//	mv cmd/pulumi-resource-openstack/schema.json cmd/pulumi-resource-openstack/schema-embed.json
package main

import (
	_ "embed"

	"github.com/pulumi/pulumi-terraform-bridge/v3/pkg/tfbridge"

	provider "pulumi-nfv.lab/openstack-provider"
)

// version is set with -ldflags "-X main.version=..." to the version the npm SDK asks for.
var version = "0.0.0-dev"

//go:embed schema-embed.json
var schema []byte

//go:embed bridge-metadata.json
var metadata []byte

func main() {
	info := provider.Provider(metadata)
	info.Version = version
	tfbridge.Main("openstack", version, info, schema)
}
