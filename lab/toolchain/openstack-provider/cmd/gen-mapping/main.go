// gen-mapping derives the Terraform → Pulumi token mapping of this provider from the npm SDK
// @pulumi/openstack (the package the project's code imports) and the Terraform provider's schema,
// and writes mapping_gen.go. It is not run by build.sh: its output is committed, and it is run
// again by hand when the SDK or the Terraform provider changes:
//
//	go run ./cmd/gen-mapping -sdk ../../../node_modules/@pulumi/openstack -out mapping_gen.go
//
// How a token is matched: every resource token of the SDK (`__pulumiType = '...'` in its .js
// files) and every function token (`invoke("openstack:...")`) has a .d.ts file listing its
// properties (a resource's `<Name>State` interface, a function's `<Name>Result` interface). Each
// Terraform resource or data source gives its Pulumi property names through the bridge's own
// naming (TerraformToPulumiNameV2). A token is mapped to the Terraform name of the same kind whose
// property set agrees best with the SDK's (Jaccard index), ties broken by the similarity of the
// names. Every token of the SDK must be matched by exactly one Terraform name; anything else, and
// every pair whose property sets differ, is reported on stderr (exit 1 unless -allow-diff).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/pulumi/pulumi-terraform-bridge/v3/pkg/tfbridge"
	shim "github.com/pulumi/pulumi-terraform-bridge/v3/pkg/tfshim"
	shimv2 "github.com/pulumi/pulumi-terraform-bridge/v3/pkg/tfshim/sdk-v2"
	"github.com/terraform-provider-openstack/terraform-provider-openstack/openstack"

	osp "pulumi-nfv.lab/openstack-provider"
)

type sdkItem struct {
	token string
	file  string // .d.ts path
	props map[string]bool
}

type tfItem struct {
	name  string
	props map[string]bool
}

var (
	reResource = regexp.MustCompile(`__pulumiType = '([^']+)'`)
	reInvoke   = regexp.MustCompile(`invoke\("(openstack:[^"]+)"`)
)

func main() {
	sdkDir := flag.String("sdk", "", "directory of the npm package @pulumi/openstack")
	out := flag.String("out", "mapping_gen.go", "file to write")
	allowDiff := flag.Bool("allow-diff", false, "write the file even when property sets differ")
	flag.Parse()
	if *sdkDir == "" {
		fail("-sdk is required")
	}

	resTokens, fnTokens := scanSDK(*sdkDir)
	p := shimv2.NewProvider(openstack.Provider())
	tfRes := tfItems(p.ResourcesMap(), false)
	tfDs := tfItems(p.DataSourcesMap(), true)

	problems := 0
	resMap, n := match("resource", resTokens, tfRes)
	problems += n
	dsMap, n := match("data source", fnTokens, tfDs)
	problems += n

	var unmappedRes, unmappedDs []string
	for _, t := range tfRes {
		if _, ok := resMap[t.name]; !ok {
			unmappedRes = append(unmappedRes, t.name)
		}
	}
	for _, t := range tfDs {
		if _, ok := dsMap[t.name]; !ok {
			unmappedDs = append(unmappedDs, t.name)
		}
	}
	fmt.Fprintf(os.Stderr, "SDK: %d resources, %d functions; Terraform: %d resources, %d data sources\n",
		len(resTokens), len(fnTokens), len(tfRes), len(tfDs))
	fmt.Fprintf(os.Stderr, "not in the SDK (left unmapped): resources %v, data sources %v\n", unmappedRes, unmappedDs)
	if problems > 0 && !*allowDiff {
		fail(fmt.Sprintf("%d problem(s); nothing written", problems))
	}
	write(*out, resMap, dsMap, append(unmappedRes, unmappedDs...))
}

// scanSDK returns the SDK's resource and function tokens with their property sets.
func scanSDK(dir string) (res, fns []sdkItem) {
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "types") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".js") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dts := strings.TrimSuffix(path, ".js") + ".d.ts"
		if m := reResource.FindSubmatch(b); m != nil {
			tok := string(m[1])
			if !strings.Contains(tok, ":") { // the provider class itself
				return nil
			}
			res = append(res, sdkItem{token: tok, file: dts, props: interfaceProps(dts, member(tok)+"State")})
		}
		for _, m := range reInvoke.FindAllSubmatch(b, -1) {
			tok := string(m[1])
			if len(fns) > 0 && fns[len(fns)-1].token == tok {
				continue // invoke and invokeOutput in the same file
			}
			fns = append(fns, sdkItem{token: tok, file: dts, props: interfaceProps(dts, upperFirst(member(tok))+"Result")})
		}
		return nil
	})
	if err != nil {
		fail(err.Error())
	}
	return res, fns
}

func member(tok string) string { return tok[strings.LastIndex(tok, ":")+1:] }

func upperFirst(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

var reProp = regexp.MustCompile(`^    (?:readonly )?([A-Za-z0-9_]+)\??: `)

// interfaceProps lists the properties of `export interface NAME {` in a .d.ts file.
func interfaceProps(file, name string) map[string]bool {
	b, err := os.ReadFile(file)
	if err != nil {
		fail(err.Error())
	}
	props := map[string]bool{}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "export interface "+name+" {"):
			in = true
		case in && strings.HasPrefix(line, "}"):
			return props
		case in:
			if m := reProp.FindStringSubmatch(line); m != nil && m[1] != "id" {
				props[m[1]] = true
			}
		}
	}
	if !in {
		fail(fmt.Sprintf("%s: no interface %s", file, name))
	}
	return props
}

func tfItems(m shim.ResourceMap, ds bool) []tfItem {
	var items []tfItem
	m.Range(func(name string, r shim.Resource) bool {
		var fields map[string]*tfbridge.SchemaInfo // data sources have no overrides
		if !ds {
			fields = osp.Fields(name)
		}
		props := map[string]bool{}
		r.Schema().Range(func(k string, _ shim.Schema) bool {
			if k != "id" {
				props[tfbridge.TerraformToPulumiNameV2(k, r.Schema(), fields)] = true
			}
			return true
		})
		items = append(items, tfItem{name: name, props: props})
		return true
	})
	sort.Slice(items, func(i, j int) bool { return items[i].name < items[j].name })
	return items
}

func jaccard(a, b map[string]bool) float64 {
	inter, union := 0, len(b)
	for k := range a {
		if b[k] {
			inter++
		} else {
			union++
		}
	}
	if union == 0 {
		return 1
	}
	return float64(inter) / float64(union)
}

// nameScore: how alike a Terraform name (openstack_compute_instance_v2) and a token
// (openstack:compute/instance:Instance) are, from 0 to 1 (longest common subsequence of the
// lower-case letters and digits, module and member, versions dropped from both).
func nameScore(tf, tok string) float64 {
	norm := func(s string) string {
		s = strings.ToLower(s)
		s = regexp.MustCompile(`v[0-9]+$`).ReplaceAllString(s, "")
		return regexp.MustCompile(`[^a-z0-9]`).ReplaceAllString(s, "")
	}
	a := norm(strings.TrimPrefix(tf, "openstack_"))
	mod := tok[strings.Index(tok, ":")+1 : strings.Index(tok, "/")]
	if mod == "index" {
		mod = ""
	}
	b := norm(mod + strings.TrimPrefix(member(tok), "get"))
	return float64(lcs(a, b)) / float64(max(len(a), len(b)))
}

func lcs(a, b string) int {
	prev := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] > cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev = cur
	}
	return prev[len(b)]
}

// match assigns each SDK token the best Terraform item; returns tfName → token and the number of
// problems reported.
func match(kind string, sdk []sdkItem, tf []tfItem) (map[string]string, int) {
	type pair struct {
		s, t       int
		prop, name float64
	}
	var pairs []pair
	for i, s := range sdk {
		for j, t := range tf {
			pairs = append(pairs, pair{i, j, jaccard(s.props, t.props), nameScore(t.name, s.token)})
		}
	}
	// Best pairs first: property agreement, then the name.
	sort.SliceStable(pairs, func(a, b int) bool {
		pa, pb := pairs[a], pairs[b]
		if pa.prop != pb.prop {
			return pa.prop > pb.prop
		}
		return pa.name > pb.name
	})
	usedS, usedT := map[int]bool{}, map[int]bool{}
	out := map[string]string{}
	problems := 0
	for _, p := range pairs {
		if usedS[p.s] || usedT[p.t] {
			continue
		}
		s, t := sdk[p.s], tf[p.t]
		if p.prop < 0.5 {
			continue // not the same thing
		}
		usedS[p.s], usedT[p.t] = true, true
		out[t.name] = s.token
		if p.prop < 1 {
			problems++
			var onlySDK, onlyTF []string
			for k := range s.props {
				if !t.props[k] {
					onlySDK = append(onlySDK, k)
				}
			}
			for k := range t.props {
				if !s.props[k] {
					onlyTF = append(onlyTF, k)
				}
			}
			sort.Strings(onlySDK)
			sort.Strings(onlyTF)
			fmt.Fprintf(os.Stderr, "%s %s -> %s: properties differ (%.2f): only in the SDK %v, only in Terraform %v\n",
				kind, t.name, s.token, p.prop, onlySDK, onlyTF)
		}
		if p.name < 0.6 {
			fmt.Fprintf(os.Stderr, "%s %s -> %s: matched by properties, names differ (%.2f)\n", kind, t.name, s.token, p.name)
		}
	}
	for i, s := range sdk {
		if !usedS[i] {
			problems++
			fmt.Fprintf(os.Stderr, "%s token %s (%s): no Terraform %s matches\n", kind, s.token, s.file, kind)
		}
	}
	return out, problems
}

func write(path string, res, ds map[string]string, ignored []string) {
	var b bytes.Buffer
	b.WriteString("// Code generated by cmd/gen-mapping from @pulumi/openstack 3.15.2 and terraform-provider-openstack v1.54.1; DO NOT EDIT.\n\n")
	b.WriteString("package provider\n\n")
	b.WriteString("// resourceTokens maps each Terraform resource to the token of the SDK's resource class.\n")
	b.WriteString("var resourceTokens = map[string]string{\n")
	writeMap(&b, res)
	b.WriteString("}\n\n// dataSourceTokens maps each Terraform data source to the token of the SDK's function.\n")
	b.WriteString("var dataSourceTokens = map[string]string{\n")
	writeMap(&b, ds)
	b.WriteString("}\n\n// unmapped: Terraform resources and data sources that @pulumi/openstack 3.15.2 has no class or function for.\n")
	b.WriteString("var unmapped = []string{\n")
	sort.Strings(ignored)
	for _, n := range ignored {
		fmt.Fprintf(&b, "\t%q,\n", n)
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		fail(err.Error())
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		fail(err.Error())
	}
	fmt.Fprintf(os.Stderr, "wrote %s: %d resources, %d data sources, %d unmapped\n", path, len(res), len(ds), len(ignored))
}

func writeMap(b *bytes.Buffer, m map[string]string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(b, "\t%q: %q,\n", k, m[k])
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "gen-mapping:", msg)
	os.Exit(1)
}
