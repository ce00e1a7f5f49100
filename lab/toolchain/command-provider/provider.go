package main

import (
	"context"
	"fmt"
	"sort"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

const (
	commandType = "command:remote:Command"
	copyType    = "command:remote:CopyToRemote"
)

// Outputs that are not inputs: they never make a diff.
var outputOnly = map[resource.PropertyKey]bool{"stdout": true, "stderr": true}

type commandProvider struct {
	pulumirpc.UnimplementedResourceProviderServer
	host *provider.HostClient
}

var (
	keepUnknowns = plugin.MarshalOptions{KeepUnknowns: true, SkipNulls: true}
	// The engine sends assets by path; the copy reads them from the program's directory.
	withAssets = plugin.MarshalOptions{KeepUnknowns: true, SkipNulls: true, ComputeAssetHashes: true}
)

func (p *commandProvider) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

func (p *commandProvider) GetSchema(context.Context, *pulumirpc.GetSchemaRequest) (*pulumirpc.GetSchemaResponse, error) {
	return &pulumirpc.GetSchemaResponse{Schema: fmt.Sprintf(`{"name":"command","version":%q}`, version)}, nil
}

func (p *commandProvider) CheckConfig(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	return &pulumirpc.CheckResponse{Inputs: req.GetNews()}, nil
}

func (p *commandProvider) DiffConfig(context.Context, *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	return &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE}, nil
}

func (p *commandProvider) Configure(context.Context, *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	return &pulumirpc.ConfigureResponse{SupportsPreview: true}, nil
}

func (p *commandProvider) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

func (p *commandProvider) Check(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	urn := resource.URN(req.GetUrn())
	news, err := plugin.UnmarshalProperties(req.GetNews(), keepUnknowns)
	if err != nil {
		return nil, err
	}
	var failures []*pulumirpc.CheckFailure
	for _, f := range checkInputs(string(urn.Type()), news) {
		failures = append(failures, &pulumirpc.CheckFailure{Property: f.property, Reason: f.reason})
	}
	return &pulumirpc.CheckResponse{Inputs: req.GetNews(), Failures: failures}, nil
}

func (p *commandProvider) Diff(_ context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	olds, news, err := unmarshalOldsNews(req.GetOlds(), req.GetNews())
	if err != nil {
		return nil, err
	}
	var diffs, replaces []string
	detailed := map[string]*pulumirpc.PropertyDiff{}
	for _, k := range changedKeys(olds, news) {
		kind := pulumirpc.PropertyDiff_UPDATE
		if k == "triggers" {
			kind = pulumirpc.PropertyDiff_UPDATE_REPLACE
			replaces = append(replaces, string(k))
		}
		diffs = append(diffs, string(k))
		detailed[string(k)] = &pulumirpc.PropertyDiff{Kind: kind, InputDiff: true}
	}
	changes := pulumirpc.DiffResponse_DIFF_NONE
	if len(diffs) > 0 {
		changes = pulumirpc.DiffResponse_DIFF_SOME
	}
	return &pulumirpc.DiffResponse{Changes: changes, Diffs: diffs, Replaces: replaces, DetailedDiff: detailed, HasDetailedDiff: true}, nil
}

// unmarshalOldsNews reads the recorded state and the new inputs of a Diff or an Update.
func unmarshalOldsNews(olds, news *structpb.Struct) (resource.PropertyMap, resource.PropertyMap, error) {
	o, err := plugin.UnmarshalProperties(olds, withAssets)
	if err != nil {
		return nil, nil, err
	}
	n, err := plugin.UnmarshalProperties(news, withAssets)
	return o, n, err
}

// changedKeys are the inputs whose value differs, sorted; unknown new values count as changes.
func changedKeys(olds, news resource.PropertyMap) []resource.PropertyKey {
	seen := map[resource.PropertyKey]bool{}
	var out []resource.PropertyKey
	consider := func(k resource.PropertyKey) {
		if seen[k] || outputOnly[k] {
			return
		}
		seen[k] = true
		o, hasOld := olds[k]
		n, hasNew := news[k]
		if hasOld != hasNew || n.ContainsUnknowns() || !o.DeepEquals(n) {
			out = append(out, k)
		}
	}
	for k := range news {
		consider(k)
	}
	for k := range olds {
		consider(k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func (p *commandProvider) Create(ctx context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	urn := resource.URN(req.GetUrn())
	inputs, err := plugin.UnmarshalProperties(req.GetProperties(), withAssets)
	if err != nil {
		return nil, err
	}
	id, err := resource.NewUniqueHex("", 8, 0)
	if err != nil {
		return nil, err
	}
	if req.GetPreview() {
		outs, err := previewOutputs(string(urn.Type()), inputs)
		return &pulumirpc.CreateResponse{Id: id, Properties: outs}, err
	}
	outs, err := p.apply(ctx, urn, inputs, nil, "create")
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CreateResponse{Id: id, Properties: outs}, nil
}

func (p *commandProvider) Update(ctx context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	urn := resource.URN(req.GetUrn())
	olds, news, err := unmarshalOldsNews(req.GetOlds(), req.GetNews())
	if err != nil {
		return nil, err
	}
	if req.GetPreview() {
		outs, err := previewOutputs(string(urn.Type()), news)
		return &pulumirpc.UpdateResponse{Properties: outs}, err
	}
	op := "update"
	if !news.HasValue("update") {
		op = "create"
	}
	outs, err := p.apply(ctx, urn, news, olds, op)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.UpdateResponse{Properties: outs}, nil
}

func (p *commandProvider) Delete(ctx context.Context, req *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	urn := resource.URN(req.GetUrn())
	if urn.Type() != commandType {
		return &emptypb.Empty{}, nil // a copied file stays, as with the command provider
	}
	state, err := plugin.UnmarshalProperties(req.GetProperties(), keepUnknowns)
	if err != nil {
		return nil, err
	}
	if !state.HasValue("delete") {
		return &emptypb.Empty{}, nil
	}
	_, err = p.apply(ctx, urn, state, state, "delete")
	return &emptypb.Empty{}, err
}

// Read (refresh) keeps the recorded state: what a command did cannot be read back.
func (p *commandProvider) Read(_ context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	return &pulumirpc.ReadResponse{Id: req.GetId(), Properties: req.GetProperties(), Inputs: req.GetInputs()}, nil
}

// apply runs one operation and returns the new outputs: the inputs, plus stdout/stderr for a Command.
// `previous` holds the outputs of the last run, for PULUMI_COMMAND_STDOUT/STDERR.
func (p *commandProvider) apply(ctx context.Context, urn resource.URN, inputs, previous resource.PropertyMap, op string) (*structpb.Struct, error) {
	conn, err := connectionFrom(inputs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", urn.Name(), err)
	}
	outs := inputs.Copy()
	switch urn.Type() {
	case commandType:
		res, err := runCommand(ctx, conn, inputs, previous, op)
		if err != nil {
			return nil, fmt.Errorf("%s (%s): %w", urn.Name(), op, err)
		}
		outs["stdout"] = resource.NewStringProperty(res.stdout)
		outs["stderr"] = resource.NewStringProperty(res.stderr)
	case copyType:
		if err := copyToRemote(ctx, conn, inputs); err != nil {
			return nil, fmt.Errorf("%s: %w", urn.Name(), err)
		}
	default:
		return nil, fmt.Errorf("unknown resource type %s: this build of the command provider has only %s and %s", urn.Type(), commandType, copyType)
	}
	return plugin.MarshalProperties(outs, withAssets)
}

// previewOutputs are the inputs, with a Command's stdout/stderr unknown until it runs.
func previewOutputs(typ string, inputs resource.PropertyMap) (*structpb.Struct, error) {
	outs := inputs.Copy()
	if typ == commandType {
		outs["stdout"] = resource.MakeComputed(resource.NewStringProperty(""))
		outs["stderr"] = resource.MakeComputed(resource.NewStringProperty(""))
	}
	return plugin.MarshalProperties(outs, withAssets)
}
