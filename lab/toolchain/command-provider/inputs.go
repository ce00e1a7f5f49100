package main

import (
	"fmt"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// connection is `remote.types.input.ConnectionArgs`, with the command provider's defaults.
type connection struct {
	host, user, password, privateKey, privateKeyPassword, hostKey string
	port, dialErrorLimit                                          int
	perDialTimeout                                                time.Duration
}

type failure struct{ property, reason string }

// checkInputs reports what the engine shows as invalid inputs before anything runs.
func checkInputs(typ string, news resource.PropertyMap) []failure {
	var out []failure
	conn, ok := news["connection"]
	switch {
	case !ok || conn.IsNull():
		out = append(out, failure{"connection", "missing required property 'connection'"})
	case conn.IsObject():
		c := conn.ObjectValue()
		if h, ok := c["host"]; !ok || (h.IsString() && h.StringValue() == "") {
			out = append(out, failure{"connection.host", "missing required property 'host'"})
		}
		for _, k := range []resource.PropertyKey{"proxy", "agentSocketPath"} {
			if c.HasValue(k) {
				out = append(out, failure{"connection." + string(k), fmt.Sprintf("'%s' is not supported by the lab build of the command provider", k)})
			}
		}
	}
	if typ == copyType {
		if !news.HasValue("source") {
			out = append(out, failure{"source", "missing required property 'source'"})
		}
		if !news.HasValue("remotePath") {
			out = append(out, failure{"remotePath", "missing required property 'remotePath'"})
		}
	}
	return out
}

func connectionFrom(inputs resource.PropertyMap) (connection, error) {
	v, ok := inputs["connection"]
	if !ok || !v.IsObject() {
		return connection{}, fmt.Errorf("connection is not set")
	}
	m := v.ObjectValue()
	c := connection{
		host:               str(m, "host", ""),
		user:               str(m, "user", "root"),
		password:           str(m, "password", ""),
		privateKey:         str(m, "privateKey", ""),
		privateKeyPassword: str(m, "privateKeyPassword", ""),
		hostKey:            str(m, "hostKey", ""),
		port:               num(m, "port", 22),
		dialErrorLimit:     num(m, "dialErrorLimit", 10),
		perDialTimeout:     time.Duration(num(m, "perDialTimeout", 15)) * time.Second,
	}
	if c.host == "" {
		return c, fmt.Errorf("connection.host is empty")
	}
	return c, nil
}

func str(m resource.PropertyMap, k resource.PropertyKey, def string) string {
	if v, ok := m[k]; ok && v.IsString() {
		return v.StringValue()
	}
	return def
}

func num(m resource.PropertyMap, k resource.PropertyKey, def int) int {
	if v, ok := m[k]; ok && v.IsNumber() {
		return int(v.NumberValue())
	}
	return def
}

func boolean(m resource.PropertyMap, k resource.PropertyKey, def bool) bool {
	if v, ok := m[k]; ok && v.IsBool() {
		return v.BoolValue()
	}
	return def
}

// environment is the `environment` input, a map of strings.
func environment(m resource.PropertyMap) map[string]string {
	out := map[string]string{}
	if v, ok := m["environment"]; ok && v.IsObject() {
		for k, e := range v.ObjectValue() {
			if e.IsString() {
				out[string(k)] = e.StringValue()
			}
		}
	}
	return out
}
