package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/archive"
	"golang.org/x/crypto/ssh"
)

// dial connects, retrying while the host boots: up to dialErrorLimit failed dials (-1: no limit),
// each bounded by perDialTimeout, as the command provider does.
func dial(ctx context.Context, c connection) (*ssh.Client, error) {
	cfg := &ssh.ClientConfig{User: c.user, Timeout: c.perDialTimeout, HostKeyCallback: ssh.InsecureIgnoreHostKey()} // unchecked only without a pinned hostKey, as documented
	if c.hostKey != "" {
		key, _, _, _, err := ssh.ParseAuthorizedKey([]byte(c.hostKey))
		if err != nil {
			return nil, fmt.Errorf("connection.hostKey is not an authorized_keys line: %w", err)
		}
		cfg.HostKeyCallback = ssh.FixedHostKey(key)
	}
	if c.privateKey != "" {
		var signer ssh.Signer
		var err error
		if c.privateKeyPassword != "" {
			signer, err = ssh.ParsePrivateKeyWithPassphrase([]byte(c.privateKey), []byte(c.privateKeyPassword))
		} else {
			signer, err = ssh.ParsePrivateKey([]byte(c.privateKey))
		}
		if err != nil {
			// Never the key itself in the message.
			return nil, fmt.Errorf("connection.privateKey cannot be parsed: %w", err)
		}
		cfg.Auth = append(cfg.Auth, ssh.PublicKeys(signer))
	}
	if c.password != "" {
		cfg.Auth = append(cfg.Auth, ssh.Password(c.password))
	}
	addr := net.JoinHostPort(c.host, strconv.Itoa(c.port))
	wait := time.Second
	for attempt := 1; ; attempt++ {
		client, err := ssh.Dial("tcp", addr, cfg)
		if err == nil {
			return client, nil
		}
		// A refused key or host key will not get better by retrying.
		if strings.Contains(err.Error(), "unable to authenticate") || strings.Contains(err.Error(), "host key mismatch") {
			return nil, fmt.Errorf("ssh %s@%s: %w", c.user, addr, err)
		}
		if c.dialErrorLimit >= 0 && attempt >= c.dialErrorLimit {
			return nil, fmt.Errorf("ssh %s@%s: %d failed dials (dialErrorLimit %d), last: %w", c.user, addr, attempt, c.dialErrorLimit, err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(wait*2, 10*time.Second)
	}
}

type runResult struct{ stdout, stderr string }

// runCommand runs the `op` command line (create, update or delete) of a Command.
func runCommand(ctx context.Context, c connection, inputs, previous resource.PropertyMap, op string) (runResult, error) {
	line := str(inputs, resource.PropertyKey(op), "")
	if line == "" {
		return runResult{}, nil
	}
	env := environment(inputs)
	if previous != nil && boolean(inputs, "addPreviousOutputInEnv", true) {
		env["PULUMI_COMMAND_STDOUT"] = str(previous, "stdout", "")
		env["PULUMI_COMMAND_STDERR"] = str(previous, "stderr", "")
	}
	client, err := dial(ctx, c)
	if err != nil {
		return runResult{}, err
	}
	defer client.Close()
	session, err := client.NewSession()
	if err != nil {
		return runResult{}, err
	}
	defer session.Close()
	var exports []string
	for k, v := range env {
		// sshd accepts only the variables its AcceptEnv lists; the others are exported by the
		// remote shell instead (this line is sent over SSH, never stored).
		if session.Setenv(k, v) != nil {
			exports = append(exports, fmt.Sprintf("export %s=%s;", k, shellQuote(v)))
		}
	}
	var stdout, stderr bytes.Buffer
	session.Stdout, session.Stderr = &stdout, &stderr
	session.Stdin = strings.NewReader(str(inputs, "stdin", ""))
	err = session.Run(strings.Join(append(exports, line), " "))
	res := runResult{stdout: strings.TrimSuffix(stdout.String(), "\n"), stderr: strings.TrimSuffix(stderr.String(), "\n")}
	if err != nil {
		return res, fmt.Errorf("%w: running %q:\n%s\n%s", err, line, res.stdout, res.stderr)
	}
	return res, nil
}

// copyToRemote writes a file asset to remotePath (atomically, through a temporary name), or
// unpacks an archive into the remotePath directory.
func copyToRemote(ctx context.Context, c connection, inputs resource.PropertyMap) error {
	dst := str(inputs, "remotePath", "")
	src := inputs["source"]
	var content io.Reader
	var line string
	switch {
	case src.IsAsset():
		data, err := src.AssetValue().Bytes()
		if err != nil {
			return fmt.Errorf("reading source: %w", err)
		}
		content = bytes.NewReader(data)
		q := shellQuote(dst)
		line = fmt.Sprintf("mkdir -p \"$(dirname %s)\" && cat > %s.tmp-$$ && mv -f %s.tmp-$$ %s", q, q, q, q)
	case src.IsArchive():
		r, w := io.Pipe()
		go func() { w.CloseWithError(src.ArchiveValue().Archive(archive.TarArchive, w)) }()
		content = r
		q := shellQuote(dst)
		line = fmt.Sprintf("mkdir -p %s && tar -x -C %s", q, q)
	default:
		return fmt.Errorf("source must be an asset or an archive")
	}
	client, err := dial(ctx, c)
	if err != nil {
		return err
	}
	defer client.Close()
	session, err := client.NewSession()
	if err != nil {
		return err
	}
	defer session.Close()
	var stderr bytes.Buffer
	session.Stdin, session.Stderr = content, &stderr
	if err := session.Run(line); err != nil {
		return fmt.Errorf("copying to %s: %w: %s", dst, err, stderr.String())
	}
	return nil
}

// shellQuote is POSIX single-quote quoting.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
