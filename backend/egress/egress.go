// Package egress keeps costpilot's outbound requests (alert webhooks,
// provider endpoints, single sign-on discovery) away from link-local
// addresses and the cloud metadata services: on a cloud VM a request there
// reads the instance's credentials, so a URL pointed at one turns a
// setting into a way to steal them.
package egress

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"
)

// metadataAddrs are the metadata services outside the link-local ranges:
// AWS over IPv6, Alibaba Cloud, and Oracle Cloud's older address.
var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("fd00:ec2::254"),
	netip.MustParseAddr("100.100.100.200"),
	netip.MustParseAddr("192.0.0.192"),
}

// metadataNames are host names that resolve to a metadata service.
var metadataNames = []string{
	"metadata.google.internal", "metadata.goog", "metadata",
	"instance-data", "instance-data.ec2.internal",
	"metadata.azure.com", "metadata.tencentyun.com",
}

// BlockedAddr reports whether ip is link-local (169.254.0.0/16, which holds
// 169.254.169.254 of AWS, Azure, Google Cloud and Oracle Cloud, or
// fe80::/10) or another metadata service address.
func BlockedAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	if ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() {
		return true
	}
	for _, m := range metadataAddrs {
		if ip == m {
			return true
		}
	}
	return false
}

// BlockedHost reports whether host (a URL's host name or address, with or
// without brackets) names a blocked address or a metadata service.
func BlockedHost(host string) bool {
	h := strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if i := strings.IndexByte(h, '%'); i >= 0 {
		h = h[:i] // a zone: fe80::1%eth0
	}
	for _, n := range metadataNames {
		if h == n {
			return true
		}
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && BlockedAddr(ip)
}

// ErrBlocked is the error of a connection refused because its address is
// link-local or a metadata service.
var ErrBlocked = errors.New("egress: link-local and cloud metadata addresses are refused")

// control refuses, at connect time, an address that a host name resolved
// to: checking the name in the configuration cannot see that.
func control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("egress: unexpected address %q: %w", address, err)
	}
	if BlockedAddr(ap.Addr()) {
		return fmt.Errorf("%w (%s)", ErrBlocked, ap.Addr())
	}
	return nil
}

// Client is an HTTP client whose connections never reach a blocked
// address, whatever a name resolves to. Through a proxy, the proxy's
// address is what is checked.
func Client(timeout time.Duration) *http.Client {
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: control}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = d.DialContext
	return &http.Client{Timeout: timeout, Transport: t}
}
