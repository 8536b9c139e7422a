// Package pricing is costpilot's embedded price catalog: compute sizes (vCPU,
// memory, architecture, family, generation) with their on-demand hourly Linux
// price in a few regions per cloud, block storage and public IP prices, and
// typical commitment discounts.
//
// Prices are the providers' published on-demand list prices in USD, as of
// PriceDate, transcribed by hand from the AWS EC2, Azure Virtual Machines,
// Google Compute Engine and OCI Compute price pages. Regions outside the table
// are priced from the provider's reference region times a regional
// multiplier; such quotes are marked Estimated so callers can say so (and
// lower their confidence). A live price source per provider (the public
// price list APIs) can replace the table later behind the same functions.
package pricing

// PriceDate is the date the catalog's prices were taken from the providers'
// published price lists.
const PriceDate = "2025-06-01"

// HoursPerMonth is the billing convention the clouds use for monthly prices.
const HoursPerMonth = 730.0
