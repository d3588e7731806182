-- The seller dashboard serves /seller/<store slug>/... beside the order desk's /seller/orders and
-- /seller/returns: those two words can never be a store's slug.
ALTER TABLE "stores" ADD CONSTRAINT "stores_slug_not_reserved" CHECK ("slug" NOT IN ('orders', 'returns'));
