-- The X-Refresh-Attempt (its SHA-256) that rotated a refresh token: the same attempt sent again
-- within a minute is the retry of a refresh whose answer was lost, not the reuse of a stolen cookie.
ALTER TABLE "refresh_tokens" ADD COLUMN "rotated_by" text;
