-- A user's Active paid servers by index: the partner programme's "active referral" test (EXISTS) is
-- then a lookup even for users with no server, where the planner bet on a scan of all servers
-- (the network page of a partner with 100,000 referrals took 100 ms, not 0.3 ms, beside 100,000 servers).
CREATE INDEX "vps_servers_paid_active_user_idx" ON "vps_servers" USING btree ("user_id") WHERE "vps_servers"."status" = 'active' and not "vps_servers"."is_trial";
