-- facet_pairs_of(bigint) listed the offer pairs of a mask for the facet_member_pairs rebuild and
-- compaction; since 20261129000100_facet_member_pairs_prices they take pairs and prices from
-- offer_pair_prices() and nothing calls it.
DROP FUNCTION facet_pairs_of(bigint);
