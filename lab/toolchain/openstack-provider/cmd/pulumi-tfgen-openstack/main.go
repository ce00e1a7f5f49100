// pulumi-tfgen-openstack writes the Pulumi schema (schema.json) and bridge-metadata.json of
// pulumi-nfv's OpenStack provider build: `pulumi-tfgen-openstack schema --out DIR`, run in this
// module's directory (or a copy of it). The descriptions in the schema come from the Terraform
// provider's docs in the Go module cache (`go mod download -json` of the module in go.mod);
// without them the schema is generated all the same, with a warning. As Pulumi's build does with
// its generate.go, the schema's "version" is set to the version given with -ldflags.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"

	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
	"github.com/pulumi/pulumi-terraform-bridge/v3/pkg/tfgen"
	"github.com/spf13/afero"

	provider "pulumi-nfv.lab/openstack-provider"
)

// version is set with -ldflags "-X main.version=..." (the npm SDK's version).
var version = "0.0.0-dev"

const tfModule = "github.com/terraform-provider-openstack/terraform-provider-openstack"

func main() {
	info := provider.Provider(nil)
	info.Version = version
	if dir, err := moduleDir(tfModule); err == nil {
		info.UpstreamRepoPath = dir
	} else {
		fmt.Fprintf(os.Stderr, "warning: no docs for the schema's descriptions: %v\n", err)
	}
	// What tfgen.Main does, plus the schema's version.
	schema.RunProviderInternalValidation = true
	tfgen.MainWithCustomGenerate("openstack", version, info, func(opts tfgen.GeneratorOptions) error {
		g, err := tfgen.NewGenerator(opts)
		if err != nil {
			return err
		}
		if err := g.Generate(); err != nil {
			return err
		}
		if opts.Language == tfgen.Schema {
			return setSchemaVersion(opts.Root, "schema.json", version)
		}
		return nil
	})
}

// setSchemaVersion sets the top-level "version" of the schema file (kept otherwise as written).
func setSchemaVersion(fs afero.Fs, file, v string) error {
	b, err := afero.ReadFile(fs, file)
	if err != nil {
		return err
	}
	var spec map[string]json.RawMessage
	if err := json.Unmarshal(b, &spec); err != nil {
		return err
	}
	spec["version"], _ = json.Marshal(v)
	out, err := json.MarshalIndent(spec, "", "    ")
	if err != nil {
		return err
	}
	return afero.WriteFile(fs, file, out, 0o644)
}

// moduleDir returns the module cache directory of mod at the version go.mod requires.
func moduleDir(mod string) (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", mod).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download -json %s: %w", mod, err)
	}
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(out, &m); err != nil {
		return "", err
	}
	if m.Error != "" || m.Dir == "" {
		return "", fmt.Errorf("go mod download -json %s: %s", mod, m.Error)
	}
	return m.Dir, nil
}
