//+------------------------------------------------------------------+
//| TradeHostPublisher.mq4                                           |
//| Publishes this MetaTrader 4 account to TradeHost online          |
//| monitoring: a hello, the closed orders as deals, new ones as     |
//| they close, and a snapshot of the account on a timer.            |
//|                                                                  |
//| MetaTrader 4 has orders, not deals: a closed order is sent as    |
//| two deals of one position (its opening, ticket*2, and its        |
//| closing, ticket*2+1), a balance or credit operation as one.      |
//|                                                                  |
//| Setup: Tools > Options > Expert Advisors > "Allow WebRequest for |
//| listed URL" and add ServerUrl; attach to any chart; paste the    |
//| activation key from the console (Online monitoring); right-click |
//| the Account History tab and choose All History.                  |
//|                                                                  |
//| It never stops for good: a refusal the trader or the server can  |
//| fix (key, subscription, account not added, WebRequest not        |
//| allowed) is tried again after a pause, and the chart's corner    |
//| says what it waits for and why.                                  |
//|                                                                  |
//| Each snapshot also tells the terminal's last ping to its trade   |
//| server and whether algorithmic trading is allowed, in the        |
//| terminal and for this program (1.3).                             |
//|                                                                  |
//| It watches each open order's excursions (1.4): its worst and     |
//| best floating profit and price move in points, sent with the     |
//| position in each snapshot and on its closing deal, and kept in   |
//| the terminal's global variables over a restart (the moves while  |
//| it does not run are missed).                                     |
//+------------------------------------------------------------------+
#property copyright "TradeHost"
#property version   "1.40"
#property strict

input string ActivationKey = "";                       // Activation key (from the console)
input string ServerUrl     = "https://my.tradehost.example"; // Server URL

#define EA_VERSION "1.4.0"
#define DEALS_PER_CALL 500          // the server's limit of deals a call
#define POSITIONS_MAX 1000          // the server's limit of positions a snapshot
#define CALLS_PER_TICK 3            // deal batches a timer tick at most: the terminal stays responsive
#define REFUSAL_PAUSE_SEC 180       // 401, 402, 404, 409 (and other refusals): tried again after this
#define PERMISSION_PAUSE_SEC 30     // WebRequest not allowed for the URL (4014/4060): tried again after this
#define LIVE_WINDOW_SEC 10          // a balance order this close to the server's clock was seen as it happened
#define FLOWS_KEPT 64               // equity_before values kept in memory (a retried batch sends the same)
#define EX_SAVE_SEC 30              // the orders' excursions go to the terminal's global variables this often (and at OnDeinit)
#define EX_GONE_SEC 60              // a closed order's excursions are forgotten this long after, its deals sent
#define QUOTE_SPAN_SEC 20           // two quotes at least this far apart on this computer's clock ...
#define QUOTE_SLACK_SEC 3           // ... and as far apart on the server's, within this: the clock is live
#define OP_BALANCE 6
#define OP_CREDIT  7

// the outcome of a call
#define RES_DONE      0             // accepted
#define RES_WAIT      1             // not accepted; g_nextTry says when to try again
#define RES_MALFORMED 2             // 400/422: the server refuses this body; set it aside
#define RES_TOO_LARGE 3             // 413: send less at a time

#define HISTORY_PARTIAL "Account History shows only part of the history: right-click the Account History tab and choose All History"

// the inputs, trimmed
string   g_key = "";
string   g_url = "";

// the protocol's state (all of it belongs to g_login and is reset when the login changes: MetaTrader 4
// keeps an Expert Advisor's globals when the trader switches accounts)
int      g_login       = 0;      // the account the state belongs to (0: not known yet)
bool     g_helloDone   = false;
datetime g_helloAt     = 0;      // when (local time): the hello is sent again once a day
datetime g_cursor      = 0;      // close time of the last order the server has (resent from a minute before)
int      g_known       = -1;     // orders closed before the cursor's minute at the last round (-1: unknown)
bool     g_partialWas  = false;  // the last round found the Account History cut
int      g_snapshotSec = 10;
int      g_historySeen = -1;     // OrdersHistoryTotal() at the last round: a change means new closed orders
bool     g_roundOpen   = false;  // a round of orders is being sent, over several timer ticks
int      g_queue[];              // its order tickets
int      g_queueAt     = 0;
int      g_queueSize   = 0;
datetime g_queueNewest = 0;      // the cursor once the round is sent
int      g_queueKnown  = 0;      // g_known once the round is sent
bool     g_queuePartial = false;
int      g_queueTotal  = 0;
bool     g_snapshotNow = false;  // a balance or credit order was sent: a snapshot at once
int      g_dealsPerCall = DEALS_PER_CALL;   // halved by a 413
int      g_positionsMax = POSITIONS_MAX;    // halved by a 413
datetime g_nextTry     = 0;
int      g_failures    = 0;
int      g_retryAfter  = 60;     // the last 429's Retry-After
int      g_lastError   = 0;      // WebRequest's error when nothing came back
datetime g_lastSnapshot = 0;
double   g_equityLow   = 0;
double   g_equityHigh  = 0;
double   g_lastBalance = 0;      // to notice a balance or credit change between events
double   g_lastCredit  = 0;
int      g_flowTicket[];         // balance orders seen live and the equity_before sent for them
double   g_flowEquity[];
int      g_offset      = 0;      // the trade server's offset from UTC: verified on a fresh quote, or cached
bool     g_offsetKnown = false;
datetime g_lastQuote   = 0;      // TimeCurrent() when last looked at
datetime g_anchorQuote = 0;      // a quote seen to arrive, and this computer's clock then
datetime g_anchorLocal = 0;
string   g_status      = "starting";
string   g_noticeDeals = "";     // a batch set aside
string   g_noticePositions = ""; // more positions than a snapshot carries
string   g_noticeHistory = "";   // the Account History is cut
int      g_backoff[]   = {1, 2, 5, 15, 60};

// an open order's excursions while watched, by its ticket
struct Excursion
  {
   long     id;                 // the order's ticket
   int      dir;                // 1 a buy, -1 a sell
   double   mae;                // the worst floating profit (at most 0) ...
   double   mfe;                // ... and the best (at least 0), in money
   double   maePoints;          // the same as price moves, in points
   double   mfePoints;
   double   open;               // the open price and the symbol's point (kept as the MQL5 publisher does)
   double   point;
   datetime gone;               // 0 while open; when it was first missed among the orders (local time)
   bool     seen;               // seen in this pass
   bool     dirty;              // changed since kept in the global variables
  };
Excursion g_ex[];
datetime g_exSavedAt = 0;

//--- JSON, written by hand: keys are the protocol's names --------------------
// a JSON string's content: \" \\ and every control character escaped (\b \f \n \r \t, \u00XX for the rest)
string JEsc(string s)
  {
   int n = StringLen(s);
   bool plain = true;
   for(int i = 0; i < n && plain; i++)
     {
      ushort c = StringGetCharacter(s, i);
      if(c < 32 || c == 34 || c == 92) plain = false;
     }
   if(plain) return s;
   string out = "";
   for(int i = 0; i < n; i++)
     {
      ushort c = StringGetCharacter(s, i);
      if(c == 34) out += "\\\"";
      else if(c == 92) out += "\\\\";
      else if(c == 8) out += "\\b";
      else if(c == 12) out += "\\f";
      else if(c == 10) out += "\\n";
      else if(c == 13) out += "\\r";
      else if(c == 9) out += "\\t";
      else if(c < 32) out += StringFormat("\\u%04x", (int)c);
      else out += ShortToString(c);
     }
   return out;
  }
string JStr(string key, string value)       { return "\"" + key + "\":\"" + JEsc(value) + "\""; }
string JNum(string key, double value, int d) { return "\"" + key + "\":" + DoubleToString(value, d); }
string JInt(string key, long value)          { return "\"" + key + "\":" + IntegerToString(value); }
string JBool(string key, bool value)         { return "\"" + key + "\":" + (value ? "true" : "false"); }
string JNull(string key)                     { return "\"" + key + "\":null"; }

// at most 64 UTF-16 units, never half of a surrogate pair
string Cut64(string s)
  {
   if(StringLen(s) <= 64) return s;
   ushort last = StringGetCharacter(s, 63);
   return StringSubstr(s, 0, (last >= 0xD800 && last <= 0xDBFF) ? 63 : 64);
  }

//--- precision ----------------------------------------------------------------
#define VOLUME_DIGITS 8
// money digits: MetaTrader 4 does not tell a currency's digits; 2, and 8 for a crypto-denominated account
int MoneyDigits()
  {
   string c = AccountCurrency();
   if(c == "BTC" || c == "XBT" || c == "ETH" || c == "LTC" || c == "BCH") return 8;
   return 2;
  }
// a symbol's digits, 0 when the symbol is unknown (delisted)
int SymbolDigits(string symbol)
  {
   if(symbol == "") return 0;
   return (int)MarketInfo(symbol, MODE_DIGITS);
  }
// prices to the symbol's digits, or 8 where they are unknown
int PriceDigits(int digits) { return digits > 0 ? digits : 8; }

//--- times: the server's clock to ISO-8601 UTC ----------------------------------
string OffsetName() { return "TradeHost.offset." + StringSubstr(AccountServer(), 0, 40); }

// TimeCurrent() is the time of the last quote and stands still while none comes (from Friday's close
// to Sunday's first quote, or before the terminal has caught up after a start): the server's offset
// from UTC is taken only from a fresh quote, i.e. two quotes seen to arrive at least QUOTE_SPAN_SEC
// apart on this computer's clock and as far apart, within QUOTE_SLACK_SEC, on the server's (a catch-up
// of old quotes after a start does not keep step with the clock). Rounded to the quarter hour, cached
// per server; a change (daylight saving) sends the hello again with fresh sessions.
void WatchServerClock()
  {
   if(!IsConnected())
     {
      g_lastQuote = 0;
      g_anchorQuote = 0;
      return;
     }
   datetime quote = TimeCurrent();
   datetime local = TimeLocal();
   if(quote == g_lastQuote) return;   // no new quote
   bool first = g_lastQuote == 0;
   g_lastQuote = quote;
   if(first) return;                  // the value at a start or reconnection may be days old
   if(g_anchorQuote == 0)
     {
      g_anchorQuote = quote;
      g_anchorLocal = local;
      return;
     }
   long localSpan = (long)(local - g_anchorLocal);
   if(localSpan < QUOTE_SPAN_SEC) return;
   long quoteSpan = (long)(quote - g_anchorQuote);
   g_anchorQuote = quote;
   g_anchorLocal = local;
   if(MathAbs((double)(quoteSpan - localSpan)) > QUOTE_SLACK_SEC) return;   // not in step: not the live clock
   long raw = (long)(quote - TimeGMT());
   int offset = (int)(MathRound(raw / 900.0) * 900);
   if(offset < -14 * 3600 || offset > 14 * 3600) return;
   if(g_offsetKnown && offset == g_offset) return;
   if(g_offsetKnown) Print("TradeHost: the trade server's time zone changed to UTC", offset >= 0 ? "+" : "", offset / 60, " min; hello again");
   g_offset = offset;
   g_offsetKnown = true;
   GlobalVariableSet(OffsetName(), (double)offset);
   g_helloDone = false;   // the hello's offset and sessions are stale
  }
// the offset cached for this server, until one is verified
void LoadOffset()
  {
   if(g_offsetKnown || AccountServer() == "" || !GlobalVariableCheck(OffsetName())) return;
   g_offset = (int)GlobalVariableGet(OffsetName());
   g_offsetKnown = true;
  }
string IsoUtc(datetime serverTime)
  {
   return UtcIso(serverTime - g_offset);
  }
string UtcIso(datetime t)
  {
   string s = TimeToString(t, TIME_DATE | TIME_SECONDS);   // yyyy.mm.dd hh:mi:ss
   StringReplace(s, ".", "-");
   StringReplace(s, " ", "T");
   return s + ".000Z";
  }

//--- excursions (1.4): each open order's worst and best floating result ------------------
// Its profit (OrderProfit: without swap and commission, as MetaTrader's own MAE/MFE) and its price
// move in points (a buy's bid above its open price, a sell's ask below it), watched at every tick
// and timer pass while the terminal is connected: from 0 at first sight, or from what the
// terminal's global variables kept (the EA restarted: the moves while it did not run are missed).
// A partial close leaves a new order (a new ticket), watched from then on.
string ExName(long id, int dir, string field)
  {
   return "TradeHost.ex." + IntegerToString(g_login) + "." + IntegerToString(id) + (dir > 0 ? ".b." : ".s.") + field;
  }

// the entry of an order and direction (-1: none); `hint` is where it usually is
int ExIndex(long id, int dir, int hint)
  {
   int n = ArraySize(g_ex);
   if(hint >= 0 && hint < n && g_ex[hint].id == id && g_ex[hint].dir == dir) return hint;
   for(int i = n - 1; i >= 0; i--)
      if(g_ex[i].id == id && g_ex[i].dir == dir) return i;
   return -1;
  }

// what the terminal's global variables kept of an order's excursions (false: nothing)
bool ExKept(long id, int dir, double &mae, double &mfe, double &maePoints, double &mfePoints)
  {
   if(!GlobalVariableCheck(ExName(id, dir, "mae")) || !GlobalVariableCheck(ExName(id, dir, "mfe"))) return false;
   mae = MathMin(0.0, GlobalVariableGet(ExName(id, dir, "mae")));
   mfe = MathMax(0.0, GlobalVariableGet(ExName(id, dir, "mfe")));
   maePoints = GlobalVariableCheck(ExName(id, dir, "maep")) ? MathMin(0.0, GlobalVariableGet(ExName(id, dir, "maep"))) : 0.0;
   mfePoints = GlobalVariableCheck(ExName(id, dir, "mfep")) ? MathMax(0.0, GlobalVariableGet(ExName(id, dir, "mfep"))) : 0.0;
   return true;
  }

// one open order's result now, folded into its extremes
void ExSee(long id, int dir, double open, double point, double profit, double points, int hint)
  {
   int i = ExIndex(id, dir, hint);
   if(i < 0)
     {
      double mae = 0, mfe = 0, maePoints = 0, mfePoints = 0;
      ExKept(id, dir, mae, mfe, maePoints, mfePoints);
      i = ArraySize(g_ex);
      ArrayResize(g_ex, i + 1, 64);
      g_ex[i].id = id;
      g_ex[i].dir = dir;
      g_ex[i].mae = mae;
      g_ex[i].mfe = mfe;
      g_ex[i].maePoints = maePoints;
      g_ex[i].mfePoints = mfePoints;
      g_ex[i].dirty = true;
     }
   g_ex[i].open = open;
   g_ex[i].point = point;
   g_ex[i].gone = 0;
   g_ex[i].seen = true;
   if(profit < g_ex[i].mae) { g_ex[i].mae = profit; g_ex[i].dirty = true; }
   if(profit > g_ex[i].mfe) { g_ex[i].mfe = profit; g_ex[i].dirty = true; }
   if(points < g_ex[i].maePoints) { g_ex[i].maePoints = points; g_ex[i].dirty = true; }
   if(points > g_ex[i].mfePoints) { g_ex[i].mfePoints = points; g_ex[i].dirty = true; }
  }

// a closed order's excursions forgotten, in memory and in the global variables
void ExForget(int k)
  {
   GlobalVariableDel(ExName(g_ex[k].id, g_ex[k].dir, "mae"));
   GlobalVariableDel(ExName(g_ex[k].id, g_ex[k].dir, "mfe"));
   GlobalVariableDel(ExName(g_ex[k].id, g_ex[k].dir, "maep"));
   GlobalVariableDel(ExName(g_ex[k].id, g_ex[k].dir, "mfep"));
   int n = ArraySize(g_ex);
   for(int i = k; i < n - 1; i++) g_ex[i] = g_ex[i + 1];
   ArrayResize(g_ex, n - 1);
  }

// the changed excursions to the terminal's global variables, written to disk (a crash keeps them)
void ExSave()
  {
   g_exSavedAt = TimeLocal();
   bool wrote = false;
   for(int k = 0; k < ArraySize(g_ex); k++)
     {
      if(!g_ex[k].dirty) continue;
      GlobalVariableSet(ExName(g_ex[k].id, g_ex[k].dir, "mae"), g_ex[k].mae);
      GlobalVariableSet(ExName(g_ex[k].id, g_ex[k].dir, "mfe"), g_ex[k].mfe);
      GlobalVariableSet(ExName(g_ex[k].id, g_ex[k].dir, "maep"), g_ex[k].maePoints);
      GlobalVariableSet(ExName(g_ex[k].id, g_ex[k].dir, "mfep"), g_ex[k].mfePoints);
      g_ex[k].dirty = false;
      wrote = true;
     }
   if(wrote) GlobalVariablesFlush();
  }

// every open order's result folded into its excursions, at each tick and timer pass; an order no
// longer open is marked gone (its closing deal carries them) and forgotten once gone EX_GONE_SEC
// with the history all sent (no round open, none closed since the last). Only while connected: a
// terminal just started may not have its orders yet.
void WatchPositions()
  {
   if(!IsConnected() || g_login <= 0) return;
   datetime now = TimeLocal();
   int n = ArraySize(g_ex);
   for(int k = 0; k < n; k++) g_ex[k].seen = false;
   int at = 0;
   for(int i = 0; i < OrdersTotal(); i++)
     {
      if(!OrderSelect(i, SELECT_BY_POS, MODE_TRADES)) continue;
      if(OrderType() != OP_BUY && OrderType() != OP_SELL) continue;   // pending orders are no positions
      int dir = OrderType() == OP_BUY ? 1 : -1;
      double point = MarketInfo(OrderSymbol(), MODE_POINT);
      double current = dir > 0 ? MarketInfo(OrderSymbol(), MODE_BID) : MarketInfo(OrderSymbol(), MODE_ASK);
      double points = (point > 0 && current > 0) ? dir * (current - OrderOpenPrice()) / point : 0.0;
      ExSee(OrderTicket(), dir, OrderOpenPrice(), point, OrderProfit(), points, at);
      at++;
     }
   bool sent = !g_roundOpen && OrdersHistoryTotal() == g_historySeen;
   for(int k = ArraySize(g_ex) - 1; k >= 0; k--)
     {
      if(g_ex[k].seen) continue;
      if(g_ex[k].gone == 0) g_ex[k].gone = now;
      else if(now - g_ex[k].gone >= EX_GONE_SEC && sent) ExForget(k);
     }
   if(now - g_exSavedAt >= EX_SAVE_SEC) ExSave();
  }

// the four excursions, or nulls when none are known: money to the currency's digits, points to 0.1
string ExcursionJson(bool known, double mae, double mfe, double maePoints, double mfePoints, int md)
  {
   if(!known) return JNull("mae") + "," + JNull("mfe") + "," + JNull("mae_points") + "," + JNull("mfe_points");
   return JNum("mae", mae, md) + "," + JNum("mfe", mfe, md) + ","
          + JNum("mae_points", maePoints, 1) + "," + JNum("mfe_points", mfePoints, 1);
  }

// the selected closed order's excursions, on its closing deal: as watched (or as the global
// variables kept them, the EA not running at the close), with its own close price and profit, its
// last moment, folded in; nulls for an order never watched. Selects no other order.
string DealExcursions(int md)
  {
   int dir = OrderType() == OP_BUY ? 1 : -1;
   double mae = 0, mfe = 0, maePoints = 0, mfePoints = 0;
   int i = ExIndex(OrderTicket(), dir, -1);
   if(i >= 0)
     {
      mae = g_ex[i].mae;
      mfe = g_ex[i].mfe;
      maePoints = g_ex[i].maePoints;
      mfePoints = g_ex[i].mfePoints;
     }
   else if(!ExKept(OrderTicket(), dir, mae, mfe, maePoints, mfePoints)) return ExcursionJson(false, 0, 0, 0, 0, md);
   double point = MarketInfo(OrderSymbol(), MODE_POINT);
   double profit = OrderProfit();
   double points = point > 0 ? dir * (OrderClosePrice() - OrderOpenPrice()) / point : 0.0;
   return ExcursionJson(true, MathMin(mae, profit), MathMax(mfe, profit), MathMin(maePoints, points), MathMax(mfePoints, points), md);
  }

//--- the messages -------------------------------------------------------------
// one trade session: a day of the trade server's week and its minutes [from, to)
string SessionJson(int day, int from, int to)
  {
   return "{" + JInt("day", day) + "," + JInt("from", from) + "," + JInt("to", to) + "}";
  }

// when the broker trades: the trade sessions of the Market Watch symbols, merged, in server time
// (the server counts only these minutes for the "no data" alert)
string SessionsList()
  {
   bool trades[];
   ArrayResize(trades, 7 * 1440);
   ArrayInitialize(trades, false);
   for(int s = 0; s < SymbolsTotal(true); s++)
     {
      string name = SymbolName(s, true);
      for(int day = 0; day < 7; day++)
        {
         datetime from = 0, to = 0;
         for(uint i = 0; i < 16 && SymbolInfoSessionTrade(name, (ENUM_DAY_OF_WEEK)day, i, from, to); i++)
           {
            int a = (int)(((long)from % 86400) / 60);
            int b = (long)to >= 86400 ? 1440 : (int)(((long)to % 86400) / 60);
            for(int m = a; m < b; m++) trades[day * 1440 + m] = true;
           }
        }
     }
   string list = "";
   int count = 0;
   for(int day = 0; day < 7; day++)
     {
      int m = 0;
      while(m < 1440)
        {
         if(!trades[day * 1440 + m]) { m++; continue; }
         int start = m;
         while(m < 1440 && trades[day * 1440 + m]) m++;
         if(list != "") list += ",";
         list += SessionJson(day, start, m);
         count++;
        }
     }
   return count <= 700 ? list : "";   // more than the server takes: none, and it assumes the Forex week
  }

string HelloJson()
  {
   string tradeMode = IsDemo() ? "demo" : "real";
   return "{" + JStr("platform", "MT4") + "," + JInt("login", g_login) + ","
          + JStr("server", AccountServer()) + "," + JStr("company", AccountCompany()) + ","
          + JStr("currency", AccountCurrency()) + "," + JInt("leverage", AccountLeverage()) + ","
          + JStr("trade_mode", tradeMode) + "," + JStr("margin_mode", "hedging") + ","
          + JInt("server_time_offset_sec", g_offset) + "," + JStr("ea_version", EA_VERSION) + ","
          + "\"sessions\":[" + SessionsList() + "]}";
  }

//--- flows: equity_before, and the equity low/high reset ----------------------------
// the balance the visible order history adds up to (credit operations go to credit); it equals
// AccountBalance() only when the Account History shows everything
double HistoryBalance()
  {
   double sum = 0;
   for(int i = OrdersHistoryTotal() - 1; i >= 0; i--)
     {
      if(!OrderSelect(i, SELECT_BY_POS, MODE_HISTORY)) continue;
      int type = OrderType();
      if(type == OP_BUY || type == OP_SELL || type == OP_BALANCE) sum += OrderProfit() + OrderSwap() + OrderCommission();
     }
   return sum;
  }

int FlowIndex(int ticket)
  {
   for(int i = ArraySize(g_flowTicket) - 1; i >= 0; i--)
      if(g_flowTicket[i] == ticket) return i;
   return -1;
  }

// equity_before of a balance order (EMPTY_VALUE: none): only when it is seen live (its time within
// LIVE_WINDOW_SEC of the server's clock, TimeGMT() and the verified offset), the equity at that moment
// less its amount, and only once the account counts it (its balance equals the history's sum); kept
// with the ticket, so a retried batch sends the same value. Never for one found in the history later.
// It selects other orders: the caller selects its order again.
double EquityBefore(int ticket, datetime time, double amount)
  {
   int at = FlowIndex(ticket);
   if(at >= 0) return g_flowEquity[at];
   if(!g_offsetKnown || MathAbs((double)(TimeGMT() + g_offset - time)) > LIVE_WINDOW_SEC) return EMPTY_VALUE;
   if(MathAbs(AccountBalance() - HistoryBalance()) >= 0.5 * MathPow(10, -MoneyDigits()))
      return EMPTY_VALUE;   // the account does not count it yet, or the history is cut: no value to vouch for
   int kept = ArraySize(g_flowTicket);
   if(kept >= FLOWS_KEPT)
     {
      for(int i = 1; i < kept; i++) { g_flowTicket[i - 1] = g_flowTicket[i]; g_flowEquity[i - 1] = g_flowEquity[i]; }
      kept--;
     }
   ArrayResize(g_flowTicket, kept + 1);
   ArrayResize(g_flowEquity, kept + 1);
   g_flowTicket[kept] = ticket;
   g_flowEquity[kept] = AccountEquity() - amount;
   return g_flowEquity[kept];
  }

// a balance or credit operation: the equity low/high start again from the equity after it, and a
// snapshot follows the deals at once (a low or high spanning a flow is no drawdown)
void Flow()
  {
   g_equityLow = AccountEquity();
   g_equityHigh = g_equityLow;
   g_snapshotNow = true;
  }

// the balance orders of the last seconds, noticed as soon as the balance or credit moves (even while
// the server is not answering), so their equity_before is the equity of that moment
void NoticeFlows()
  {
   if(!g_offsetKnown) return;
   datetime now = TimeGMT() + g_offset;
   for(int i = OrdersHistoryTotal() - 1; i >= 0; i--)
     {
      if(!OrderSelect(i, SELECT_BY_POS, MODE_HISTORY)) continue;
      if(OrderType() != OP_BALANCE || MathAbs((double)(now - OrderOpenTime())) > LIVE_WINDOW_SEC) continue;
      EquityBefore(OrderTicket(), OrderOpenTime(), OrderProfit());
     }
  }

// one deal of the selected order: its opening ("in") or its closing ("out"); a balance or credit
// operation is one "in". Money to the account currency's digits, volume to 8, prices to the symbol's
// digits (8 when unknown); before: equity_before (EMPTY_VALUE: null)
string DealJson(bool closing, double before)
  {
   int type = OrderType();
   string symbol = OrderSymbol();
   int digits = SymbolDigits(symbol);
   int md = MoneyDigits();
   bool cash = type == OP_BALANCE || type == OP_CREDIT;
   bool buy = type == OP_BUY;
   string dealType = cash ? (type == OP_BALANCE ? "balance" : "credit") : ((buy != closing) ? "buy" : "sell");
   long ticket = (long)OrderTicket() * 2 + (closing ? 1 : 0);
   // an order's money (profit, swap) comes with its closing; the commission is split over both
   // sides, the closing side taking what the rounding of the opening side leaves
   double profit = (closing || cash) ? OrderProfit() : 0;
   double swap = closing ? OrderSwap() : 0;
   double opening = cash ? 0 : NormalizeDouble(OrderCommission() / 2, md);
   double commission = cash ? 0 : (closing ? OrderCommission() - opening : opening);
   return "{" + JInt("ticket", ticket) + "," + JInt("order", OrderTicket()) + "," + JInt("position_id", OrderTicket()) + ","
          + JStr("time", IsoUtc(closing ? OrderCloseTime() : OrderOpenTime())) + ","
          + JStr("type", dealType) + "," + JStr("entry", closing ? "out" : "in") + ","
          + JStr("symbol", symbol) + "," + JInt("digits", digits) + ","
          + JNum("volume", cash ? 0 : OrderLots(), VOLUME_DIGITS) + ","
          + JNum("price", cash ? 0 : (closing ? OrderClosePrice() : OrderOpenPrice()), PriceDigits(digits)) + ","
          + JNum("profit", profit, md) + "," + JNum("swap", swap, md) + ","
          + JNum("commission", commission, md) + "," + JNum("fee", 0, md) + ","
          + JInt("magic", OrderMagicNumber()) + "," + JStr("comment", Cut64(OrderComment())) + ","
          + (before == EMPTY_VALUE ? JNull("equity_before") : JNum("equity_before", before, md)) + ","
          + (closing && !cash ? DealExcursions(md) : ExcursionJson(false, 0, 0, 0, 0, md)) + "}";
  }

// the selected order's deals appended to `batch`; answers how many
int OrderDeals(string &batch)
  {
   int ticket = OrderTicket();
   int type = OrderType();
   bool cash = type == OP_BALANCE || type == OP_CREDIT;
   double before = EMPTY_VALUE;
   if(type == OP_BALANCE)
     {
      before = EquityBefore(ticket, OrderOpenTime(), OrderProfit());
      if(!OrderSelect(ticket, SELECT_BY_TICKET, MODE_HISTORY)) return 0;
     }
   if(cash) Flow();
   batch += (batch == "" ? "" : ",") + DealJson(false, before);
   if(cash) return 1;
   batch += "," + DealJson(true, EMPTY_VALUE);
   return 2;
  }

string DealsJson(string deals)
  {
   return "{" + JInt("login", g_login) + ",\"deals\":[" + deals + "]}";
  }

// the selected open order, with its excursions so far (`hint`: its index among the open orders)
string PositionJson(int hint)
  {
   int pd = PriceDigits(SymbolDigits(OrderSymbol()));
   int md = MoneyDigits();
   bool buy = OrderType() == OP_BUY;
   int i = ExIndex(OrderTicket(), buy ? 1 : -1, hint);
   string excursions = i >= 0 ? ExcursionJson(true, g_ex[i].mae, g_ex[i].mfe, g_ex[i].maePoints, g_ex[i].mfePoints, md)
                              : ExcursionJson(false, 0, 0, 0, 0, md);
   double current = buy ? MarketInfo(OrderSymbol(), MODE_BID) : MarketInfo(OrderSymbol(), MODE_ASK);
   return "{" + JInt("ticket", OrderTicket()) + "," + JStr("symbol", OrderSymbol()) + "," + JStr("type", buy ? "buy" : "sell") + ","
          + JNum("volume", OrderLots(), VOLUME_DIGITS) + "," + JStr("open_time", IsoUtc(OrderOpenTime())) + ","
          + JNum("open_price", OrderOpenPrice(), pd) + "," + JNum("current_price", current, pd) + ","
          + JNum("sl", OrderStopLoss(), pd) + "," + JNum("tp", OrderTakeProfit(), pd) + ","
          + JNum("profit", OrderProfit(), md) + "," + JNum("swap", OrderSwap(), md) + ","
          + excursions + "}";
  }

// the last ping to the trade server in whole milliseconds (TERMINAL_PING_LAST counts
// microseconds), rounded half up; null while there is none to tell: not connected, or none
// measured yet (0)
string PingJson(bool connected, long pingUs)
  {
   if(!connected || pingUs <= 0) return JNull("ping_ms");
   return JInt("ping_ms", (pingUs + 500) / 1000);
  }

// the account now; the first g_positionsMax positions, and positions_total when more are open
string SnapshotJson()
  {
   string positions = "";
   int total = 0, sent = 0;
   for(int i = 0; i < OrdersTotal(); i++)
     {
      if(!OrderSelect(i, SELECT_BY_POS, MODE_TRADES)) continue;
      if(OrderType() != OP_BUY && OrderType() != OP_SELL) continue;   // pending orders are no positions
      total++;
      if(sent >= g_positionsMax) continue;
      positions += (sent == 0 ? "" : ",") + PositionJson(total - 1);
      sent++;
     }
   g_noticePositions = total > sent
                       ? IntegerToString(total) + " positions are open: each snapshot carries the first " + IntegerToString(sent) + " and their count"
                       : "";
   double equity = AccountEquity();
   int md = MoneyDigits();
   bool connected = IsConnected();
   long ping = TerminalInfoInteger(TERMINAL_PING_LAST);   // microseconds; 0 before one is measured
   return "{" + JInt("login", g_login) + "," + JStr("time", UtcIso(TimeGMT())) + ","
          + JNum("balance", AccountBalance(), md) + "," + JNum("equity", equity, md) + ","
          + JNum("margin", AccountMargin(), md) + "," + JNum("free_margin", AccountFreeMargin(), md) + ","
          + JNum("credit", AccountCredit(), md) + ","
          + JNum("equity_low", MathMin(g_equityLow, equity), md) + "," + JNum("equity_high", MathMax(g_equityHigh, equity), md) + ","
          + JBool("terminal_connected", connected) + ","
          + PingJson(connected, ping) + ","
          + JBool("trade_allowed", TerminalInfoInteger(TERMINAL_TRADE_ALLOWED) != 0) + ","
          + JBool("ea_trade_allowed", MQLInfoInteger(MQL_TRADE_ALLOWED) != 0) + ","
          + "\"positions\":[" + positions + "]"
          + (total > sent ? "," + JInt("positions_total", total) : "") + "}";
  }

//--- HTTP ------------------------------------------------------------------------
#define NOT_ALLOWED -2              // Post's status when the terminal does not allow WebRequest for the URL

// Posts `json`; answers the HTTP status (-1 when nothing came back, NOT_ALLOWED) and the body in `answer`.
int Post(string path, string json, string &answer)
  {
   char body[], result[];
   string headers;
   int size = StringToCharArray(json, body, 0, WHOLE_ARRAY, CP_UTF8);
   ArrayResize(body, size - 1);   // without the terminating zero
   string url = g_url + "/api/ingest/v1/" + path;
   string request = "Content-Type: application/json\r\nAuthorization: Bearer " + g_key + "\r\n";
   ResetLastError();
   int status = WebRequest("POST", url, request, 10000, body, result, headers);
   if(status == -1)
     {
      int err = GetLastError();
      if(err == 4014 || err == 4060)   // the URL is not in the allowed list (yet): 4060 in older builds
        {
         Wait(PERMISSION_PAUSE_SEC, "WebRequest is not allowed for " + g_url
              + ": add it in Tools > Options > Expert Advisors, \"Allow WebRequest for listed URL\"");
         return NOT_ALLOWED;
        }
      g_lastError = err;
     }
   answer = CharArrayToString(result, 0, WHOLE_ARRAY, CP_UTF8);
   if(status == 429) g_retryAfter = RetryAfter(headers);
   return status;
  }

int RetryAfter(string headers)
  {
   int at = StringFind(headers, "Retry-After:");
   if(at < 0) at = StringFind(headers, "retry-after:");
   if(at < 0) return 60;
   return (int)MathMax(1, StringToInteger(StringSubstr(headers, at + 12, 8)));
  }

// a JSON number or string field of an answer, as text ("" when absent)
string Field(string json, string key)
  {
   int at = StringFind(json, "\"" + key + "\":");
   if(at < 0) return "";
   int from = at + StringLen(key) + 3;
   if(StringGetCharacter(json, from) == '"')
      return StringSubstr(json, from + 1, StringFind(json, "\"", from + 1) - from - 1);
   int to = from;
   while(to < StringLen(json) && StringFind(",}", ShortToString((ushort)StringGetCharacter(json, to))) < 0) to++;
   return StringSubstr(json, from, to - from);
  }

// nothing is sent before `seconds` have passed; the chart says why and when the next try is
void Wait(int seconds, string why)
  {
   g_nextTry = TimeLocal() + seconds;
   g_status = "waiting: " + why + "; trying again at " + TimeToString(g_nextTry, TIME_SECONDS);
  }

// the server's refusal in plain words, with what the trader can do
string Refusal(string path, int status, string message)
  {
   string what;
   if(status == 401) what = "the server does not know this activation key: paste the current key from the console (Subscription, Show the activation key)";
   else if(status == 402) what = "the monitoring subscription has ended: renew it in the console";
   else if(status == 404) what = "account " + IntegerToString(g_login) + " is not added to monitoring: add it under My accounts";
   else if(status == 409) what = "account " + IntegerToString(g_login) + " on this server already reports under another activation key";
   else what = "the server refused the " + path;
   return what + " (HTTP " + IntegerToString(status) + (message != "" ? ": " + message : "") + ")";
  }

// what a call's answer means. A refusal the trader or the server can fix (401, 402, 404, 409, any
// other 4xx, a 400/422 hello) is tried again every REFUSAL_PAUSE_SEC, starting with a hello; a
// malformed deals batch or snapshot (400/422) is the caller's to set aside, a 413 to make smaller;
// 429 waits its Retry-After; 5xx and dropped connections back off {1, 2, 5, 15, 60} s.
int Handle(string path, int status, string answer)
  {
   if(status >= 200 && status < 300)
     {
      g_failures = 0;
      return RES_DONE;
     }
   if(status == NOT_ALLOWED) return RES_WAIT;   // Post has said so and set the pause
   string message = Field(answer, "message");
   if(status == 429)
     {
      Wait(g_retryAfter, "the server asks to slow down (HTTP 429)");
      return RES_WAIT;
     }
   if(path != "hello" && status == 413) return RES_TOO_LARGE;
   if(path != "hello" && (status == 400 || status == 422)) return RES_MALFORMED;
   if(status >= 400 && status < 500 && status != 408)
     {
      g_helloDone = false;   // the account may have changed on the server: start again with a hello
      Wait(REFUSAL_PAUSE_SEC, Refusal(path, status, message));
      return RES_WAIT;
     }
   int pause = g_backoff[(int)MathMin(g_failures, ArraySize(g_backoff) - 1)];
   g_failures++;
   Wait(pause, status < 0 ? "the server cannot be reached (error " + IntegerToString(g_lastError) + ")"
                          : "the server is not answering (HTTP " + IntegerToString(status) + ")");
   return RES_WAIT;
  }

//--- the work of a timer tick -------------------------------------------------------
string CursorName()  { return "TradeHost.cursor." + IntegerToString(g_login); }
string KnownName()   { return "TradeHost.known." + IntegerToString(g_login); }
string PartialName() { return "TradeHost.partial." + IntegerToString(g_login); }

// a new login (the first, or the trader switched accounts): all state starts again for it
void StartLogin(int login)
  {
   g_login = login;
   g_helloDone = false;
   g_cursor = GlobalVariableCheck(CursorName()) ? (datetime)GlobalVariableGet(CursorName()) : 0;
   g_known = GlobalVariableCheck(KnownName()) ? (int)GlobalVariableGet(KnownName()) : -1;
   g_partialWas = GlobalVariableCheck(PartialName()) && GlobalVariableGet(PartialName()) != 0;
   g_historySeen = -1;
   g_roundOpen = false;
   g_queueSize = 0;
   g_queueAt = 0;
   g_snapshotNow = false;
   g_dealsPerCall = DEALS_PER_CALL;
   g_positionsMax = POSITIONS_MAX;
   g_nextTry = 0;
   g_failures = 0;
   g_lastSnapshot = 0;
   ArrayResize(g_flowTicket, 0);
   ArrayResize(g_flowEquity, 0);
   ArrayResize(g_ex, 0);          // the login's orders are watched afresh (from what the globals kept)
   g_exSavedAt = TimeLocal();
   g_offsetKnown = false;
   g_lastQuote = 0;
   g_anchorQuote = 0;
   LoadOffset();
   g_noticeDeals = "";
   g_noticePositions = "";
   g_noticeHistory = "";
   g_equityLow = AccountEquity();
   g_equityHigh = g_equityLow;
   g_lastBalance = AccountBalance();
   g_lastCredit = AccountCredit();
  }

bool SayHello()
  {
   string answer;
   if(Handle("hello", Post("hello", HelloJson(), answer), answer) != RES_DONE) return false;
   g_helloDone = true;
   g_helloAt = TimeLocal();
   g_snapshotSec = (int)MathMax(1, StringToInteger(Field(answer, "snapshot_every_sec")));
   if(Field(answer, "full_resync") == "true")
     {
      g_cursor = 0;
      g_known = -1;
     }
   g_historySeen = -1;   // a round from the cursor
   g_roundOpen = false;
   g_status = "connected to the server";
   return true;
  }

// the orders to send in this round: those closed since the cursor (a minute's overlap: the server
// keeps each deal once), or all of them again when older orders have appeared since the last round
// (the trader widened the Account History's period) or the history no longer looks cut. The Expert
// Advisor sees only the period the Account History tab shows: a history without a deposit, or whose
// first operation is a trade, is cut, and the chart says how to show all of it.
void Collect()
  {
   int total = OrdersHistoryTotal();
   if(total == 0)
     {
      g_historySeen = 0;   // not loaded yet, or nothing closed: nothing to send
      return;
     }
   datetime from = g_cursor > 60 ? g_cursor - 60 : 0;
   datetime closes[];
   ArrayResize(closes, total);
   ArrayResize(g_queue, 0);
   int relevant = 0, older = 0, n = 0;
   bool deposit = false, firstCash = false;
   datetime first = 0, newest = g_cursor;
   for(int i = 0; i < total; i++)
     {
      if(i % 1000 == 0 && IsStopped()) return;
      if(!OrderSelect(i, SELECT_BY_POS, MODE_HISTORY)) continue;
      int type = OrderType();
      bool cash = type == OP_BALANCE || type == OP_CREDIT;
      if(!cash && type != OP_BUY && type != OP_SELL) continue;   // cancelled pending orders
      datetime closed = OrderCloseTime();
      closes[relevant++] = closed;
      if(type == OP_BALANCE && OrderProfit() > 0) deposit = true;
      if(first == 0 || OrderOpenTime() < first)
        {
         first = OrderOpenTime();
         firstCash = cash;
        }
      if(closed < from)
        {
         older++;
         continue;
        }
      ArrayResize(g_queue, n + 1, 1024);
      g_queue[n++] = OrderTicket();
      if(closed > newest) newest = closed;
     }
   bool partial = !deposit || !firstCash;
   if(from > 0 && ((g_known >= 0 && older > g_known) || (g_partialWas && !partial)))
     {
      Print("TradeHost: older orders appeared in the Account History; the whole history is sent again");
      g_cursor = 0;
      Collect();   // from the start (from is 0: no second rescan)
      return;
     }
   int known = 0;
   for(int k = 0; k < relevant; k++)
      if(closes[k] < newest - 60) known++;
   if(partial && g_noticeHistory == "") Print("TradeHost: ", HISTORY_PARTIAL);
   g_noticeHistory = partial ? HISTORY_PARTIAL : "";
   g_queueSize = n;
   g_queueAt = 0;
   g_queueNewest = newest;
   g_queueKnown = known;
   g_queuePartial = partial;
   g_queueTotal = total;
   g_roundOpen = true;
  }

// a batch the server refuses as malformed: logged with its order tickets, shown, and passed over
void SetAside(int first, int last, int status, string answer)
  {
   string message = Field(answer, "message");
   Print("TradeHost: the server refused the deals of orders #", first, " to #", last, " (HTTP ", status,
         message != "" ? ": " + message : "", "); they are set aside and the next ones are sent");
   g_noticeDeals = "the deals of orders #" + IntegerToString(first) + " to #" + IntegerToString(last)
                   + " were refused by the server and set aside (see the Experts log)";
  }

// the round's orders as deals, DealsPerCall a call and CALLS_PER_TICK calls a tick at most (the
// terminal stays responsive during a long history); the cursor moves once the round is sent
void SendQueue()
  {
   for(int call = 0; call < CALLS_PER_TICK && g_queueAt < g_queueSize && !IsStopped(); call++)
     {
      int at = g_queueAt, deals = 0;
      string batch = "";
      while(at < g_queueSize && (deals == 0 || deals + 2 <= g_dealsPerCall))
        {
         if(OrderSelect(g_queue[at], SELECT_BY_TICKET, MODE_HISTORY)) deals += OrderDeals(batch);
         at++;
        }
      if(deals > 0)
        {
         string answer;
         int status = Post("deals", DealsJson(batch), answer);
         int result = Handle("deals", status, answer);
         if(result == RES_TOO_LARGE && g_dealsPerCall > 2)
           {
            g_dealsPerCall = (int)MathMax(2, g_dealsPerCall / 2);   // the same orders again, fewer a call
            continue;
           }
         if(result == RES_MALFORMED || result == RES_TOO_LARGE) SetAside(g_queue[g_queueAt], g_queue[at - 1], status, answer);
         else if(result != RES_DONE) return;
        }
      g_queueAt = at;
     }
   if(g_queueAt < g_queueSize)
     {
      g_status = "sending the order history: " + IntegerToString(g_queueSize - g_queueAt) + " orders to go";
      return;
     }
   g_cursor = g_queueNewest;
   GlobalVariableSet(CursorName(), (double)g_cursor);
   g_known = g_queueKnown;
   GlobalVariableSet(KnownName(), (double)g_known);
   g_partialWas = g_queuePartial;
   GlobalVariableSet(PartialName(), g_partialWas ? 1.0 : 0.0);
   g_historySeen = g_queueTotal;
   g_roundOpen = false;
  }

bool SendSnapshot()
  {
   string answer;
   int status = Post("snapshot", SnapshotJson(), answer);
   int result = Handle("snapshot", status, answer);
   if(result == RES_TOO_LARGE)
     {
      g_positionsMax = (int)MathMax(1, g_positionsMax / 2);   // fewer positions, and their count
      return false;
     }
   if(result == RES_MALFORMED)
     {
      // dropped: the next snapshot is a new one
      string message = Field(answer, "message");
      Print("TradeHost: the server refused a snapshot (HTTP ", status, message != "" ? ": " + message : "", "); the next one follows");
      g_lastSnapshot = TimeLocal();
      g_snapshotNow = false;
      g_status = "the server refused the last snapshot (HTTP " + IntegerToString(status) + "); the next one follows";
      return false;
     }
   if(result != RES_DONE) return false;
   g_lastSnapshot = TimeLocal();
   g_snapshotNow = false;
   g_equityLow = AccountEquity();
   g_equityHigh = g_equityLow;
   g_status = "publishing; last snapshot " + TimeToString(TimeLocal(), TIME_SECONDS);
   return true;
  }

void Work()
  {
   if(g_helloDone && TimeLocal() - g_helloAt >= 86400) g_helloDone = false;   // sessions once a day
   if(!g_helloDone)
     {
      // AccountNumber() is 0 for a moment after the terminal starts: no hello before a connected terminal
      if(!IsConnected() || g_login <= 0)
        {
         g_status = "waiting for the terminal to connect to the trade server";
         return;
        }
      LoadOffset();
      if(!g_offsetKnown)
        {
         g_status = "waiting for a fresh quote to learn the trade server's time zone (none yet: the market may be closed)";
         return;
        }
      if(!SayHello()) return;
     }
   if(!g_roundOpen && OrdersHistoryTotal() != g_historySeen) Collect();
   if(g_roundOpen)
     {
      SendQueue();
      if(g_roundOpen || TimeLocal() < g_nextTry) return;
     }
   if(g_snapshotNow || TimeLocal() - g_lastSnapshot >= g_snapshotSec) SendSnapshot();
  }

void ShowStatus()
  {
   string text = "TradeHost monitoring " + EA_VERSION + ": " + g_status;
   if(g_noticeHistory != "") text += "\n" + g_noticeHistory;
   if(g_noticeDeals != "") text += "\n" + g_noticeDeals;
   if(g_noticePositions != "") text += "\n" + g_noticePositions;
   Comment(text);
  }

//--- the terminal's events -------------------------------------------------------------
int OnInit()
  {
   // MetaTrader 4 keeps globals over a re-initialisation (new inputs, another account): start afresh,
   // and the state of the login is loaded when the terminal reports it (StartLogin)
   g_key = StringTrimRight(StringTrimLeft(ActivationKey));
   g_url = StringTrimRight(StringTrimLeft(ServerUrl));
   while(StringLen(g_url) > 0 && StringGetCharacter(g_url, StringLen(g_url) - 1) == '/')
      g_url = StringSubstr(g_url, 0, StringLen(g_url) - 1);
   g_login = 0;
   g_helloDone = false;
   g_cursor = 0;
   g_roundOpen = false;
   g_offsetKnown = false;
   g_nextTry = 0;
   g_status = "starting";
   g_noticeDeals = "";
   g_noticePositions = "";
   g_noticeHistory = "";
   if(StringLen(g_key) < 10)
     {
      g_status = "waiting for the activation key: paste it from the console into the inputs (F7)";
      ShowStatus();
      return INIT_SUCCEEDED;
     }
   EventSetTimer(1);
   return INIT_SUCCEEDED;
  }

void OnDeinit(const int reason)
  {
   if(g_login > 0) ExSave();   // the orders' excursions outlive the stop
   EventKillTimer();
   Comment("");
  }

// the equity low/high between snapshots; a move of the balance or credit may be a flow to notice
void WatchAccount()
  {
   double equity = AccountEquity();
   g_equityLow = MathMin(g_equityLow, equity);
   g_equityHigh = MathMax(g_equityHigh, equity);
   double balance = AccountBalance();
   double credit = AccountCredit();
   if(balance != g_lastBalance || credit != g_lastCredit) NoticeFlows();
   g_lastBalance = balance;
   g_lastCredit = credit;
  }

void OnTick()
  {
   if(g_login <= 0) return;
   WatchServerClock();
   WatchAccount();
   WatchPositions();
  }

void OnTimer()
  {
   int login = AccountNumber();
   if(login > 0 && login != g_login) StartLogin(login);
   if(g_login > 0)
     {
      WatchServerClock();
      WatchAccount();
      WatchPositions();
     }
   if(TimeLocal() >= g_nextTry) Work();
   ShowStatus();
  }
//+------------------------------------------------------------------+
