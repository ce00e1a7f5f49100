// pulumi-resource-command, as built by pulumi-nfv's lab: the `remote` resources of Pulumi's command
// provider (`command:remote:Command`, `command:remote:CopyToRemote`), implemented here because the
// Go module proxy refuses every version of github.com/pulumi/pulumi-command/provider (see
// ../README.md). It speaks the same gRPC protocol and accepts the same inputs as the command
// provider's schema for these two resources, so the project's code uses the unchanged
// `@pulumi/command` SDK; with Pulumi's own plugin installed instead, nothing else changes.
//
// Semantics kept from the command provider 1.x: a change of `triggers` replaces the resource;
// another input change updates it (Command runs `update`, or `create` when `update` is unset;
// CopyToRemote copies again); `delete` runs at deletion with the connection it was created with;
// `stdin` is passed on the session's standard input; `stdout`/`stderr` are outputs and, with
// `addPreviousOutputInEnv` (default true), reach later runs as PULUMI_COMMAND_STDOUT/STDERR.
// The engine keeps secrets secret: inputs arrive in plain text (AcceptSecrets is false), and it
// marks every output whose input held a secret as secret again.
package main

import (
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// version is set with -ldflags "-X main.version=..." to the version the npm SDK asks for.
var version = "0.0.0-dev"

func main() {
	err := provider.Main("command", func(host *provider.HostClient) (pulumirpc.ResourceProviderServer, error) {
		return &commandProvider{host: host}, nil
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-resource-command: %v\n", err)
		os.Exit(1)
	}
}
