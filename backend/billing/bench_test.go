package billing

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

// benchFOCUS builds n hourly FOCUS rows of 125 resources, 70 % tagged,
// shaped like scripts/genfocus output.
func benchFOCUS(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`"BilledCost","BillingAccountId","BillingCurrency","BillingPeriodEnd","BillingPeriodStart","ChargeCategory","ChargePeriodStart","EffectiveCost","ListCost","ProviderName","RegionId","ResourceId","ResourceType","ServiceCategory","ServiceName","SubAccountId","Tags"` + "\n")
	provs := []string{"AWS", "Microsoft", "Google Cloud", "Oracle"}
	for i := 0; i < n; i++ {
		r := i % 125
		h := i / 125
		tags := "NULL"
		if r%10 < 7 {
			tags = fmt.Sprintf(`"{""app"": ""app-%02d"", ""env"": ""prod""}"`, r%20)
		}
		fmt.Fprintf(&b, `0.%010d,"acct-%d","USD","2024-02-01 00:00:00","2024-01-01 00:00:00","Usage","2024-01-%02d %02d:00:00",0.%010d,1.%010d,"%s","region-%d","res-%06d","Instance","Compute","Service %d","sub-%d",%s`+"\n",
			i*7919%10000000000, r%4, 1+h/24%28, h%24, i*31%10000000000, i%10000000000, provs[r%4], r%3, r, r%5, r%7, tags)
	}
	return b.Bytes()
}

func BenchmarkParse(b *testing.B) {
	data := benchFOCUS(100_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := Parse(context.Background(), bytes.NewReader(data), "bench.csv", Options{})
		if err != nil || res.Rows != 100_000 {
			b.Fatal(err, res.Rows)
		}
	}
}
