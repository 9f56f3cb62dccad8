import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type pg from 'pg';
import type { Config } from './config.ts';
import { isLoopback } from './lib/client-address.ts';
import { AppError } from './lib/errors.ts';
import { createSessionRevocations } from './lib/session-revocations.ts';
import { sessionsRepository } from './db/sessions.ts';
import { devMailboxRoutes } from './integrations/mail/dev-mailbox.ts';
import { createMailer, type Mailer } from './integrations/mail/index.ts';
import { jobsPlugin } from './jobs/plugin.ts';
import { createAccessTokens } from './modules/auth/access-token.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { stepUpRoutes } from './modules/auth/step-up.routes.ts';
import { createStepUpService } from './modules/auth/step-up.service.ts';
import { stepUpPlugin } from './plugins/step-up.ts';
import {
  createGateways,
  sandboxGatewayRoutes,
  shouldServeSandboxGateway,
} from './integrations/payments/index.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { createAdminService } from './modules/admin/admin.service.ts';
import { createOperatorsService } from './modules/admin/operators.service.ts';
import { adminVpsRoutes } from './modules/vps/vps.admin.routes.ts';
import { createAdminVpsService } from './modules/vps/vps.admin.service.ts';
import { monitoringAdminRoutes } from './modules/monitoring/monitoring.admin.routes.ts';
import { createMonitoringAdminService } from './modules/monitoring/monitoring.admin.service.ts';
import { createIngest } from './modules/monitoring/monitoring.ingest.ts';
import { monitoringAlertsRoutes } from './modules/monitoring/monitoring.alerts.routes.ts';
import { createAlertsService } from './modules/monitoring/monitoring.alerts.service.ts';
import { monitoringIngestRoutes } from './modules/monitoring/monitoring.ingest.routes.ts';
import { monitoringJobsPlugin } from './modules/monitoring/monitoring.plugin.ts';
import { partnerJobsPlugin } from './modules/partner/partner.plugin.ts';
import { partnerAdminRoutes } from './modules/partner/partner.admin.routes.ts';
import { createPartnerSummary } from './modules/partner/partner.admin.summary.ts';
import { partnerRoutes } from './modules/partner/partner.routes.ts';
import { createWithdrawals } from './modules/partner/partner.withdrawals.ts';
import { createPromocodes } from './modules/partner/partner.promocodes.ts';
import { createPartnerSettings } from './modules/partner/partner.settings.ts';
import { createPartnerService } from './modules/partner/partner.service.ts';
import { monitoringPublicRoutes } from './modules/monitoring/monitoring.public.routes.ts';
import { monitoringPortfolioRoutes } from './modules/monitoring/monitoring.portfolios.routes.ts';
import { createPortfolioService } from './modules/monitoring/monitoring.portfolios.service.ts';
import { createMonitoringReads } from './modules/monitoring/monitoring.reads.ts';
import { createWidgetReads } from './modules/monitoring/monitoring.widgets.ts';
import { monitoringWidgetRoutes } from './modules/monitoring/monitoring.widgets.routes.ts';
import { monitoringRoutes } from './modules/monitoring/monitoring.routes.ts';
import { createMonitoringService } from './modules/monitoring/monitoring.service.ts';
import { telegramPlugin } from './modules/telegram/telegram.plugin.ts';
import { telegramRoutes } from './modules/telegram/telegram.routes.ts';
import { createTelegramService } from './modules/telegram/telegram.service.ts';
import { withTelegramNotices } from './integrations/telegram/notices.ts';
import { vpsRoutes } from './modules/vps/vps.routes.ts';
import { createVpsService } from './modules/vps/vps.service.ts';
import { vpsJobsPlugin } from './modules/vps/vps.plugin.ts';
import { createMachineService } from './modules/vps/vps.machine.service.ts';
import { vpsMachineRoutes } from './modules/vps/vps.machine.routes.ts';
import {
  CONSOLE_LIMITS,
  createConsoleService,
  type ConsoleLimits,
} from './modules/vps/vps.console.ts';
import { vpsConsoleRoutes } from './modules/vps/vps.console.routes.ts';
import { latencyModule } from './modules/latency/latency.plugin.ts';
import { balanceAdminRoutes } from './modules/balance/balance.admin.routes.ts';
import { createBalanceAdminService } from './modules/balance/balance.admin.service.ts';
import { balanceJobsPlugin } from './modules/balance/balance.plugin.ts';
import { balanceRoutes } from './modules/balance/balance.routes.ts';
import { createBalanceService } from './modules/balance/balance.service.ts';
import { webhookRoutes } from './modules/balance/webhook.routes.ts';
import { createIdempotency } from './plugins/idempotency.ts';
import { clicksRoutes } from './modules/clicks/clicks.routes.ts';
import { createClicksService } from './modules/clicks/clicks.service.ts';
import type { ServiceDeps } from './modules/deps.ts';
import { frontRoutes } from './modules/front/front.routes.ts';
import { createFrontService } from './modules/front/front.service.ts';
import { userRoutes } from './modules/user/user.routes.ts';
import { eventsRoutes } from './modules/events/events.routes.ts';
import { profileRoutes } from './modules/profile/profile.routes.ts';
import { factorsRoutes } from './modules/factors/factors.routes.ts';
import { createFactorsService } from './modules/factors/factors.service.ts';
import { faqAdminRoutes } from './modules/faq/faq.admin.routes.ts';
import { faqRoutes } from './modules/faq/faq.routes.ts';
import { createFaqService } from './modules/faq/faq.service.ts';
import { supportAdminRoutes } from './modules/support/support.admin.routes.ts';
import { supportJobsPlugin } from './modules/support/support.plugin.ts';
import { supportRoutes } from './modules/support/support.routes.ts';
import { createSupportService } from './modules/support/support.service.ts';
import { createProfileService } from './modules/profile/profile.service.ts';
import { createStorage } from './integrations/storage/index.ts';
import { createUserService } from './modules/user/user.service.ts';
import { authPlugin } from './plugins/auth.ts';
import { dbPlugin } from './plugins/db.ts';
import { docsPlugin } from './plugins/docs.ts';
import { errorHandlerPlugin, notFoundHandler } from './plugins/error-handler.ts';
import { inputGuardPlugin, JSON_DEPTH_MAX, jsonDepthExceeds } from './plugins/input-guard.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { pubsubPlugin } from './plugins/pubsub.ts';
import { redisPlugin } from './plugins/redis.ts';
import { securityPlugin } from './plugins/security.ts';
import { registerWebConsole } from './plugins/web-console.ts';
import { apiCompressionPlugin } from './plugins/compression.ts';
import { responseSerializerCompiler } from './plugins/response-serializer.ts';
import { requestLogging } from './lib/request-log.ts';

export const BODY_LIMIT = 64 * 1024;

export interface AppDeps {
  /** A pool owned by the caller; without it one is made from config.databaseUrl and closed with the app. */
  pool?: pg.Pool;
  /** The clock of every rule (expiries, token times); tests move it. */
  now?: () => Date;
  /** Overrides the mail driver chosen from the config. */
  mailer?: Mailer;
  /** Where the JSON log goes (default stdout). */
  logStream?: NodeJS.WritableStream;
  /** The live updates' heartbeat period (tests shorten it). */
  live?: { heartbeatMs?: number };
  /** The web console's idle and total time limits (tests shorten them). */
  console?: Partial<ConsoleLimits>;
}

/** Answers 404 to a client on another machine, as if the route were not there. */
async function loopbackClientsOnly(request: FastifyRequest) {
  if (!isLoopback(request.ip)) throw new AppError(404, 'NOT_FOUND');
}

/** Trusts the `hops` proxies nearest to the API (proxy-addr counts the socket's peer as hop 0). */
function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** The whole HTTP application, ready to `listen` or `inject`; it never listens by itself. */
export function buildApp(config: Config, deps: AppDeps = {}): FastifyInstance {
  const app = Fastify({
    ...requestLogging(config.logLevel, deps.logStream),
    bodyLimit: BODY_LIMIT,
    // a number of hops as Fastify's own function for it (its types take no number)
    trustProxy:
      typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // a server URL typed with a trailing '/' (a publisher posting to //api/ingest/...) still works
    routerOptions: { ignoreDuplicateSlashes: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  // compiled per schema; checked against zod as well in tests (plugins/response-serializer.ts)
  app.setSerializerCompiler(responseSerializerCompiler({ check: config.nodeEnv === 'test' }));

  // JSON only (text/plain is what cross-site forms can send). POSTs without a body
  // (refresh-token, logout) may still say application/json. Depth is checked on the text first.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    if (jsonDepthExceeds(text, JSON_DEPTH_MAX)) return done(new AppError(400, 'BODY_TOO_DEEP'));
    return parseJson(request, text, done);
  });

  const now = deps.now ?? (() => new Date());
  const fromConfig = deps.mailer ? undefined : createMailer(config, now);
  // every notify() mail is copied to the user's Telegram chat (app.telegram, once registered)
  const mailer = withTelegramNotices(
    deps.mailer ?? fromConfig!.mailer,
    () => app.telegram?.notices,
  );
  const devMailbox = fromConfig?.devMailbox;
  const tokens = createAccessTokens(
    config.jwtSecret,
    config.accessTokenTtl,
    now,
    config.jwtSecretPrevious,
  );
  // ended sign-ins, whose access tokens every instance refuses at once (lib/session-revocations)
  const sessions = createSessionRevocations(config.accessTokenTtl, now, app.log);

  app.register(errorHandlerPlugin);
  app.register(inputGuardPlugin);
  app.register(securityPlugin, {
    publicUrl: config.publicUrl,
    formTargets: config.payments.payeer ? [new URL(config.payments.payeer.merchantUrl).origin] : [],
  });
  app.register(dbPlugin, { pool: deps.pool, databaseUrl: config.databaseUrl });
  // app.redis (REDIS_URL): the rate limits' shared counters and app.pubsub's publications
  app.register(redisPlugin, { config });
  app.register(rateLimitPlugin, { config });
  app.register(pubsubPlugin, { config });
  app.register(authPlugin, { tokens, sessions });
  app.addHook('onReady', () =>
    sessions.start(app.pubsub, (since) => sessionsRepository.endedSince(app.db, since)),
  );
  app.addHook('onClose', () => sessions.close());
  // config.stepUp: the routes that let money or secrets leave ask for a fresh proof
  app.register(stepUpPlugin, { now });
  app.register(docsPlugin, { publicUrl: config.publicUrl, ui: config.docsServed });
  // app.jobs (after the db plugin): pg-boss, on which the modules' plugins define their queues
  app.register(jobsPlugin, { config, now });
  // app.vpsJobs: `app.vpsJobs.operations` is the OperationQueue for services
  app.register(telegramPlugin, { config });
  app.register(vpsJobsPlugin, (parent) => ({
    config,
    mailer,
    now,
    telegram: parent.telegram.outbox,
  }));
  app.register(monitoringJobsPlugin, (parent) => ({
    config,
    mailer,
    now,
    telegram: parent.telegram.outbox,
    // silent-terminal alerts naming the owner's servers go to the VPS module's guardian
    guardian: parent.vpsJobs.guardian,
  }));
  app.register(balanceJobsPlugin, { config, mailer, now });
  app.register(partnerJobsPlugin, { config, now });
  app.register(supportJobsPlugin, { config, mailer });

  app.register(
    async (api) => {
      // answers above 1 KB compressed per request (the console's files are, at build time)
      await api.register(apiCompressionPlugin);
      const serviceDeps: ServiceDeps = {
        db: app.db,
        config,
        mailer,
        tokens,
        sessions,
        redis: app.redis,
        now,
        log: app.log,
      };
      await api.register(authRoutes, { auth: createAuthService(serviceDeps), config });
      await api.register(stepUpRoutes, { stepUp: createStepUpService(serviceDeps), config });
      await api.register(userRoutes, { user: createUserService(serviceDeps), config });
      // GET /api/user/events (live updates), and where db/live.ts's publishLive sends them
      await api.register(eventsRoutes, { config, sessions, ...deps.live });
      const storage = createStorage(config);
      const profile = createProfileService({ ...serviceDeps, storage });
      await api.register(profileRoutes, { profile, config });
      await api.register(factorsRoutes, { factors: createFactorsService(serviceDeps), config });
      await api.register(frontRoutes, { front: createFrontService(serviceDeps), config });
      await api.register(clicksRoutes, { clicks: createClicksService(serviceDeps), config });
      const idempotency = createIdempotency(app.db);
      const gateways = createGateways(config);
      const balance = createBalanceService({ ...serviceDeps, gateways });
      await api.register(balanceRoutes, { balance, idempotency, config });
      await api.register(webhookRoutes, { balance });
      const admin = createAdminService(serviceDeps);
      const faq = createFaqService(serviceDeps);
      await api.register(faqRoutes, { faq, config });
      await api.register(faqAdminRoutes, { faq, config });
      const support = createSupportService({
        ...serviceDeps,
        storage,
        notices: app.supportJobs,
      });
      await api.register(supportRoutes, { support: support.user, config });
      await api.register(supportAdminRoutes, {
        support: support.admin,
        config,
      });
      await api.register(adminRoutes, {
        admin,
        operators: createOperatorsService(serviceDeps),
        config,
      });
      await api.register(balanceAdminRoutes, {
        admin: createBalanceAdminService(serviceDeps),
        idempotency,
        config,
      });
      const withdrawals = createWithdrawals(serviceDeps);
      await api.register(partnerRoutes, {
        partner: createPartnerService(serviceDeps),
        withdrawals,
        promocodes: createPromocodes(serviceDeps),
        idempotency,
        config,
      });
      await api.register(partnerAdminRoutes, {
        withdrawals,
        settings: createPartnerSettings(serviceDeps),
        summary: createPartnerSummary(serviceDeps),
        config,
      });
      const { operations } = app.vpsJobs;
      const vps = createVpsService({ ...serviceDeps, operations });
      await api.register(vpsRoutes, { vps, idempotency, config });
      const { hypervisor } = app.vpsJobs;
      const machine = createMachineService({ ...serviceDeps, hypervisor, operations });
      await api.register(vpsMachineRoutes, { machine, config });
      const limits = { ...CONSOLE_LIMITS, ...deps.console };
      const consoles = createConsoleService({ ...serviceDeps, hypervisor, limits });
      await api.register(vpsConsoleRoutes, { consoles, config });
      const { bots } = app.telegram;
      const telegram = createTelegramService({ ...serviceDeps, bots });
      await api.register(telegramRoutes, { telegram, bots, servers: vps, config, now });
      const adminVps = createAdminVpsService({ ...serviceDeps, operations });
      await api.register(adminVpsRoutes, { adminVps, config });
      await api.register(latencyModule, { ...serviceDeps });
      const reads = createMonitoringReads(app.db, now, config.monitoring.viewsKey);
      const monitoring = createMonitoringService(serviceDeps, reads);
      await api.register(monitoringRoutes, { monitoring, reads, idempotency, config });
      await api.register(monitoringPublicRoutes, { reads, config });
      // the public account's image and card for other sites
      const widgets = createWidgetReads(app.db, reads);
      await api.register(monitoringWidgetRoutes, { widgets, config });
      await api.register(monitoringPortfolioRoutes, {
        portfolios: createPortfolioService(serviceDeps),
        config,
      });
      const alerts = createAlertsService(serviceDeps, app.monitoringJobs.telegram);
      await api.register(monitoringAlertsRoutes, { alerts, config });
      const monitoringAdmin = createMonitoringAdminService(serviceDeps);
      await api.register(monitoringAdminRoutes, {
        monitoringAdmin,
        idempotency,
        config,
      });
      const ingest = createIngest(
        app.db,
        app.pg,
        now,
        app.monitoringJobs.touch,
        app.monitoringJobs.alerts.engine,
      );
      await api.register(monitoringIngestRoutes, { ingest, config });
      // development's helpers (every reset code, a gateway where anyone "pays"): for this
      // machine's own clients unless DEV_ROUTES_PUBLIC, and never in production
      await api.register(async (dev) => {
        if (!config.devRoutesPublic) dev.addHook('onRequest', loopbackClientsOnly);
        if (devMailbox) await dev.register(devMailboxRoutes, { mailbox: devMailbox });
        if (shouldServeSandboxGateway(config)) await dev.register(sandboxGatewayRoutes, { config });
      });
    },
    { prefix: '/api' },
  );

  // after the API: the built console and its SPA fallback
  app.setNotFoundHandler(notFoundHandler(registerWebConsole(app, config.webDist)));
  app.addHook('onClose', async () => mailer.close());
  return app;
}
