//+------------------------------------------------------------------+
//| TradeHostPublisher.mq5                                           |
//| Publishes this MetaTrader 5 account to TradeHost online          |
//| monitoring: a hello, the deal history, new deals as they happen, |
//| and a snapshot of the account on a timer.                        |
//|                                                                  |
//| Setup: Tools > Options > Expert Advisors > "Allow WebRequest for |
//| listed URL" and add ServerUrl; attach to any chart; paste the    |
//| activation key from the console (Online monitoring).             |
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
//| It watches each open position's excursions (1.4): its worst and  |
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
#define PERMISSION_PAUSE_SEC 30     // WebRequest not allowed for the URL (4014): tried again after this
#define LIVE_WINDOW_SEC 10          // a balance deal this close to the server's clock was seen as it happened
#define FLOWS_KEPT 64               // equity_before values kept in memory (a retried batch sends the same)
#define EX_SAVE_SEC 30              // the positions' excursions go to the terminal's global variables this often (and at OnDeinit)
#define EX_GONE_SEC 60              // a closed position's excursions are forgotten this long after, its deals sent

// the outcome of a call
#define RES_DONE      0             // accepted
#define RES_WAIT      1             // not accepted; g_nextTry says when to try again
#define RES_MALFORMED 2             // 400/422: the server refuses this body; set it aside
#define RES_TOO_LARGE 3             // 413: send less at a time

// the inputs, trimmed
string g_key = "";
string g_url = "";

// the protocol's state (all of it belongs to g_login and is reset when the login changes)
long   g_login       = 0;       // the account the state belongs to (0: not known yet)
bool   g_helloDone   = false;   // hello answered
datetime g_helloAt   = 0;       // when (local time): the hello is sent again once a day
long   g_cursor      = -1;      // the last deal ticket the server has
int    g_snapshotSec = 10;      // how often the server wants a snapshot
bool   g_dealsDue    = true;    // deals after the cursor may exist
bool   g_snapshotNow = false;   // a balance or credit deal was sent: a snapshot at once
int    g_dealsPerCall = DEALS_PER_CALL;   // halved by a 413
int    g_positionsMax = POSITIONS_MAX;    // halved by a 413
datetime g_nextTry   = 0;       // no call before this (local time)
int    g_failures    = 0;       // server errors in a row
int    g_retryAfter  = 60;      // the last 429's Retry-After
int    g_lastError   = 0;       // WebRequest's error when nothing came back
datetime g_lastSnapshot = 0;
double g_equityLow   = 0;
double g_equityHigh  = 0;
double g_lastBalance = 0;       // to notice a balance or credit change between events
double g_lastCredit  = 0;
long   g_flowTicket[];          // balance deals seen live and the equity_before sent for them
double g_flowEquity[];
int    g_offset      = 0;       // the trade server's offset from UTC, verified while connected
bool   g_offsetKnown = false;
string g_status      = "starting";
string g_noticeDeals = "";      // a batch set aside
string g_noticePositions = "";  // more positions than a snapshot carries
int    g_backoff[]   = {1, 2, 5, 15, 60};

// a position's excursions while watched, per position id and direction (a netting reversal starts another)
struct Excursion
  {
   long     id;
   int      dir;                // 1 a buy, -1 a sell
   double   mae;                // the worst floating profit (at most 0) ...
   double   mfe;                // ... and the best (at least 0), in money
   double   maePoints;          // the same as price moves, in points
   double   mfePoints;
   double   open;               // the open price and the symbol's point: the closing deal's price in points
   double   point;
   datetime gone;               // 0 while open; when it was first missed among the positions (local time)
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
// money to the account currency's digits (BTC accounts have 8)
int MoneyDigits()
  {
   long d = AccountInfoInteger(ACCOUNT_CURRENCY_DIGITS);
   return (d >= 0 && d <= 8) ? (int)d : 2;
  }
// a symbol's digits, 0 when the symbol is unknown (delisted)
int SymbolDigits(string symbol)
  {
   long d = 0;
   if(symbol == "" || !SymbolInfoInteger(symbol, SYMBOL_DIGITS, d)) return 0;
   return (int)d;
  }
// prices to the symbol's digits, or 8 where they are unknown
int PriceDigits(int digits) { return digits > 0 ? digits : 8; }

//--- times: the server's clock to ISO-8601 UTC with milliseconds --------------
string OffsetName() { return "TradeHost.offset." + StringSubstr(AccountInfoString(ACCOUNT_SERVER), 0, 40); }

// the trade server's offset from UTC, to the nearest quarter hour, taken only while connected
// (TimeTradeServer is worked out by the terminal from this computer's clock and the server's zone);
// cached per server, and a change (daylight saving) sends the hello again with fresh sessions
void WatchServerClock()
  {
   if(TerminalInfoInteger(TERMINAL_CONNECTED) == 0 || AccountInfoString(ACCOUNT_SERVER) == "") return;
   long raw = (long)(TimeTradeServer() - TimeGMT());
   int offset = (int)(MathRound(raw / 900.0) * 900);
   if(offset < -14 * 3600 || offset > 14 * 3600) return;
   if(g_offsetKnown && offset == g_offset) return;
   if(g_offsetKnown) Print("TradeHost: the trade server's time zone changed to UTC", offset >= 0 ? "+" : "", offset / 60, " min; hello again");
   g_offset = offset;
   g_offsetKnown = true;
   GlobalVariableSet(OffsetName(), offset);
   g_helloDone = false;   // the hello's offset and sessions are stale
  }
// the offset cached for this server, until one is verified
void LoadOffset()
  {
   if(g_offsetKnown || AccountInfoString(ACCOUNT_SERVER) == "" || !GlobalVariableCheck(OffsetName())) return;
   g_offset = (int)GlobalVariableGet(OffsetName());
   g_offsetKnown = true;
  }
string IsoUtc(long serverMsc)
  {
   long utcMsc = serverMsc - (long)g_offset * 1000;
   return UtcIso((datetime)(utcMsc / 1000), (int)(utcMsc % 1000));
  }
string UtcIso(datetime t, int msc)
  {
   string s = TimeToString(t, TIME_DATE | TIME_SECONDS);   // yyyy.mm.dd hh:mi:ss
   StringReplace(s, ".", "-");
   StringReplace(s, " ", "T");
   return s + "." + StringFormat("%03d", msc) + "Z";
  }

//--- excursions (1.4): each open position's worst and best floating result ---------------
// Its profit (without swap and commission, as MetaTrader's own MAE/MFE) and its price move in
// points (a buy's bid above its open price, a sell's ask below it), watched at every tick and
// timer pass while the terminal is connected: from 0 at first sight, or from what the terminal's
// global variables kept (the EA restarted: the moves while it did not run are missed).
string ExName(long id, int dir, string field)
  {
   return "TradeHost.ex." + IntegerToString(g_login) + "." + IntegerToString(id) + (dir > 0 ? ".b." : ".s.") + field;
  }

// the entry of a position id and direction (-1: none); `hint` is where it usually is
int ExIndex(long id, int dir, int hint)
  {
   int n = ArraySize(g_ex);
   if(hint >= 0 && hint < n && g_ex[hint].id == id && g_ex[hint].dir == dir) return hint;
   for(int i = n - 1; i >= 0; i--)
      if(g_ex[i].id == id && g_ex[i].dir == dir) return i;
   return -1;
  }

// what the terminal's global variables kept of a position's excursions (false: nothing)
bool ExKept(long id, int dir, double &mae, double &mfe, double &maePoints, double &mfePoints)
  {
   if(!GlobalVariableCheck(ExName(id, dir, "mae")) || !GlobalVariableCheck(ExName(id, dir, "mfe"))) return false;
   mae = MathMin(0.0, GlobalVariableGet(ExName(id, dir, "mae")));
   mfe = MathMax(0.0, GlobalVariableGet(ExName(id, dir, "mfe")));
   maePoints = GlobalVariableCheck(ExName(id, dir, "maep")) ? MathMin(0.0, GlobalVariableGet(ExName(id, dir, "maep"))) : 0.0;
   mfePoints = GlobalVariableCheck(ExName(id, dir, "mfep")) ? MathMax(0.0, GlobalVariableGet(ExName(id, dir, "mfep"))) : 0.0;
   return true;
  }

// one open position's result now, folded into its extremes
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

// a closed position's excursions forgotten, in memory and in the global variables
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

// every open position's result folded into its excursions, at each tick and timer pass; a position
// no longer open is marked gone (its closing deal carries them: a deals round follows) and forgotten
// once gone EX_GONE_SEC with the deals all sent. Only while connected: a terminal just started may
// not have its positions yet.
void WatchPositions()
  {
   if(TerminalInfoInteger(TERMINAL_CONNECTED) == 0 || g_login <= 0) return;
   datetime now = TimeLocal();
   int n = ArraySize(g_ex);
   for(int k = 0; k < n; k++) g_ex[k].seen = false;
   int total = PositionsTotal();
   for(int i = 0; i < total; i++)
     {
      if(PositionGetTicket(i) == 0) continue;
      string symbol = PositionGetString(POSITION_SYMBOL);
      int dir = PositionGetInteger(POSITION_TYPE) == POSITION_TYPE_BUY ? 1 : -1;
      double open = PositionGetDouble(POSITION_PRICE_OPEN);
      double current = PositionGetDouble(POSITION_PRICE_CURRENT);
      double point = SymbolInfoDouble(symbol, SYMBOL_POINT);
      double points = (point > 0 && current > 0) ? dir * (current - open) / point : 0.0;
      ExSee(PositionGetInteger(POSITION_IDENTIFIER), dir, open, point, PositionGetDouble(POSITION_PROFIT), points, i);
     }
   for(int k = ArraySize(g_ex) - 1; k >= 0; k--)
     {
      if(g_ex[k].seen) continue;
      if(g_ex[k].gone == 0)
        {
         g_ex[k].gone = now;
         g_dealsDue = true;
        }
      else if(now - g_ex[k].gone >= EX_GONE_SEC && !g_dealsDue) ExForget(k);
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

// a closing deal's excursions (out, out_by, inout): its position's, by id and the direction it
// closes (a sell closes a buy), with the deal's own profit and price, its last moment, folded in;
// from the global variables when the EA did not run at the close (its price then left out: the
// open price is not kept). Nulls for any other deal, and for a position never watched.
string DealExcursions(ulong ticket, string type, string entry, int md)
  {
   if((type != "buy" && type != "sell") || entry == "in") return ExcursionJson(false, 0, 0, 0, 0, md);
   long id = HistoryDealGetInteger(ticket, DEAL_POSITION_ID);
   int dir = type == "sell" ? 1 : -1;
   double mae = 0, mfe = 0, maePoints = 0, mfePoints = 0, open = 0, point = 0;
   int i = ExIndex(id, dir, -1);
   if(i >= 0)
     {
      mae = g_ex[i].mae;
      mfe = g_ex[i].mfe;
      maePoints = g_ex[i].maePoints;
      mfePoints = g_ex[i].mfePoints;
      open = g_ex[i].open;
      point = g_ex[i].point;
     }
   else if(!ExKept(id, dir, mae, mfe, maePoints, mfePoints)) return ExcursionJson(false, 0, 0, 0, 0, md);
   double profit = HistoryDealGetDouble(ticket, DEAL_PROFIT);
   double points = point > 0 ? dir * (HistoryDealGetDouble(ticket, DEAL_PRICE) - open) / point : 0.0;
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
   long mode = AccountInfoInteger(ACCOUNT_TRADE_MODE);
   string tradeMode = mode == ACCOUNT_TRADE_MODE_DEMO ? "demo" : (mode == ACCOUNT_TRADE_MODE_CONTEST ? "contest" : "real");
   bool hedging = AccountInfoInteger(ACCOUNT_MARGIN_MODE) == ACCOUNT_MARGIN_MODE_RETAIL_HEDGING;
   return "{" + JStr("platform", "MT5") + "," + JInt("login", g_login) + ","
          + JStr("server", AccountInfoString(ACCOUNT_SERVER)) + "," + JStr("company", AccountInfoString(ACCOUNT_COMPANY)) + ","
          + JStr("currency", AccountInfoString(ACCOUNT_CURRENCY)) + "," + JInt("leverage", AccountInfoInteger(ACCOUNT_LEVERAGE)) + ","
          + JStr("trade_mode", tradeMode) + "," + JStr("margin_mode", hedging ? "hedging" : "netting") + ","
          + JInt("server_time_offset_sec", g_offset) + "," + JStr("ea_version", EA_VERSION) + ","
          + "\"sessions\":[" + SessionsList() + "]}";
  }

// ENUM_DEAL_TYPE to the protocol's types; an unknown type is a correction, and said in the log
string DealType(ulong ticket, long type)
  {
   switch((int)type)
     {
      case DEAL_TYPE_BUY:                      return "buy";
      case DEAL_TYPE_SELL:                     return "sell";
      case DEAL_TYPE_BALANCE:                  return "balance";
      case DEAL_TYPE_CREDIT:                   return "credit";
      case DEAL_TYPE_CHARGE:                   return "charge";
      case DEAL_TYPE_CORRECTION:               return "correction";
      case DEAL_TYPE_BONUS:                    return "bonus";
      case DEAL_TYPE_COMMISSION:
      case DEAL_TYPE_COMMISSION_DAILY:
      case DEAL_TYPE_COMMISSION_MONTHLY:
      case DEAL_TYPE_COMMISSION_AGENT_DAILY:
      case DEAL_TYPE_COMMISSION_AGENT_MONTHLY: return "commission";
      case DEAL_TYPE_INTEREST:                 return "interest";
      case DEAL_TYPE_BUY_CANCELED:
      case DEAL_TYPE_SELL_CANCELED:            return "canceled";
      case DEAL_DIVIDEND:
      case DEAL_DIVIDEND_FRANKED:              return "dividend";
      case DEAL_TAX:                           return "tax";
     }
   Print("TradeHost: deal #", ticket, " has a deal type unknown to this publisher (", type, "), sent as a correction");
   return "correction";
  }

string DealEntry(long entry)
  {
   if(entry == DEAL_ENTRY_OUT)    return "out";
   if(entry == DEAL_ENTRY_INOUT)  return "inout";
   if(entry == DEAL_ENTRY_OUT_BY) return "out_by";
   return "in";
  }

//--- flows: equity_before, and the equity low/high reset ----------------------------
// the balance the deal history adds up to (credit deals go to credit, not balance)
double HistoryBalance()
  {
   double sum = 0;
   int total = HistoryDealsTotal();
   for(int i = 0; i < total; i++)
     {
      ulong t = HistoryDealGetTicket(i);
      if(t == 0 || HistoryDealGetInteger(t, DEAL_TYPE) == DEAL_TYPE_CREDIT) continue;
      sum += HistoryDealGetDouble(t, DEAL_PROFIT) + HistoryDealGetDouble(t, DEAL_SWAP)
             + HistoryDealGetDouble(t, DEAL_COMMISSION) + HistoryDealGetDouble(t, DEAL_FEE);
     }
   return sum;
  }

int FlowIndex(ulong ticket)
  {
   for(int i = ArraySize(g_flowTicket) - 1; i >= 0; i--)
      if(g_flowTicket[i] == (long)ticket) return i;
   return -1;
  }

// equity_before of a balance deal (EMPTY_VALUE: none): only when it is seen live (its time within
// LIVE_WINDOW_SEC of the server's clock now), the equity at that moment less the deal's amount, and
// only once the account counts the deal (its balance equals the history's sum); kept with the ticket,
// so a retried batch sends the same value. Never for a flow found in the history later (after a stop,
// a restart).
double EquityBefore(ulong ticket)
  {
   int at = FlowIndex(ticket);
   if(at >= 0) return g_flowEquity[at];
   datetime time = (datetime)HistoryDealGetInteger(ticket, DEAL_TIME);
   if(MathAbs((double)(TimeTradeServer() - time)) > LIVE_WINDOW_SEC) return EMPTY_VALUE;
   if(MathAbs(AccountInfoDouble(ACCOUNT_BALANCE) - HistoryBalance()) >= 0.5 * MathPow(10, -MoneyDigits()))
      return EMPTY_VALUE;   // the account does not count it yet: no value to vouch for
   int kept = ArraySize(g_flowTicket);
   if(kept >= FLOWS_KEPT)
     {
      for(int i = 1; i < kept; i++) { g_flowTicket[i - 1] = g_flowTicket[i]; g_flowEquity[i - 1] = g_flowEquity[i]; }
      kept--;
     }
   ArrayResize(g_flowTicket, kept + 1);
   ArrayResize(g_flowEquity, kept + 1);
   g_flowTicket[kept] = (long)ticket;
   g_flowEquity[kept] = AccountInfoDouble(ACCOUNT_EQUITY) - HistoryDealGetDouble(ticket, DEAL_PROFIT);
   return g_flowEquity[kept];
  }

// a balance or credit deal: the equity low/high start again from the equity after it, and a
// snapshot follows the deals at once (a low or high spanning a flow is no drawdown)
void Flow()
  {
   double equity = AccountInfoDouble(ACCOUNT_EQUITY);
   g_equityLow = equity;
   g_equityHigh = equity;
   g_snapshotNow = true;
  }

// the balance deals of the last seconds, noticed as soon as the balance or credit moves (even while
// the server is not answering), so their equity_before is the equity of that moment
void NoticeFlows()
  {
   if(!HistorySelect(0, HistoryEnd())) return;
   datetime now = TimeTradeServer();
   for(int i = HistoryDealsTotal() - 1; i >= 0; i--)
     {
      ulong ticket = HistoryDealGetTicket(i);
      if(ticket == 0) continue;
      if((datetime)HistoryDealGetInteger(ticket, DEAL_TIME) < now - LIVE_WINDOW_SEC) break;
      if((long)ticket > g_cursor && HistoryDealGetInteger(ticket, DEAL_TYPE) == DEAL_TYPE_BALANCE) EquityBefore(ticket);
     }
  }

// one deal; the money to the account currency's digits, volume to 8, prices to the symbol's digits
// (8 when unknown), magic as a string of digits (a 64-bit number a JSON number cannot hold exactly)
string DealJson(ulong ticket)
  {
   string symbol = HistoryDealGetString(ticket, DEAL_SYMBOL);
   long rawType = HistoryDealGetInteger(ticket, DEAL_TYPE);
   string type = DealType(ticket, rawType);
   int digits = SymbolDigits(symbol);
   int md = MoneyDigits();
   string entry = DealEntry(HistoryDealGetInteger(ticket, DEAL_ENTRY));
   double before = type == "balance" ? EquityBefore(ticket) : EMPTY_VALUE;
   if(type == "balance" || type == "credit") Flow();
   return "{" + JInt("ticket", (long)ticket) + "," + JInt("order", HistoryDealGetInteger(ticket, DEAL_ORDER)) + ","
          + JInt("position_id", HistoryDealGetInteger(ticket, DEAL_POSITION_ID)) + ","
          + JStr("time", IsoUtc(HistoryDealGetInteger(ticket, DEAL_TIME_MSC))) + ","
          + JStr("type", type) + "," + JStr("entry", entry) + ","
          + JStr("symbol", symbol) + "," + JInt("digits", digits) + ","
          + JNum("volume", HistoryDealGetDouble(ticket, DEAL_VOLUME), VOLUME_DIGITS) + ","
          + JNum("price", HistoryDealGetDouble(ticket, DEAL_PRICE), PriceDigits(digits)) + ","
          + JNum("profit", HistoryDealGetDouble(ticket, DEAL_PROFIT), md) + ","
          + JNum("swap", HistoryDealGetDouble(ticket, DEAL_SWAP), md) + ","
          + JNum("commission", HistoryDealGetDouble(ticket, DEAL_COMMISSION), md) + ","
          + JNum("fee", HistoryDealGetDouble(ticket, DEAL_FEE), md) + ","
          + JStr("magic", IntegerToString(HistoryDealGetInteger(ticket, DEAL_MAGIC))) + ","
          + JStr("comment", Cut64(HistoryDealGetString(ticket, DEAL_COMMENT))) + ","
          + (before == EMPTY_VALUE ? JNull("equity_before") : JNum("equity_before", before, md)) + ","
          + DealExcursions(ticket, type, entry, md) + "}";
  }

string DealsJson(string deals)
  {
   return "{" + JInt("login", g_login) + ",\"deals\":[" + deals + "]}";
  }

// the selected position, with its excursions so far (`hint`: its index among the positions)
string PositionJson(ulong ticket, int hint)
  {
   string symbol = PositionGetString(POSITION_SYMBOL);
   int pd = PriceDigits(SymbolDigits(symbol));
   int md = MoneyDigits();
   bool buy = PositionGetInteger(POSITION_TYPE) == POSITION_TYPE_BUY;
   int i = ExIndex(PositionGetInteger(POSITION_IDENTIFIER), buy ? 1 : -1, hint);
   string excursions = i >= 0 ? ExcursionJson(true, g_ex[i].mae, g_ex[i].mfe, g_ex[i].maePoints, g_ex[i].mfePoints, md)
                              : ExcursionJson(false, 0, 0, 0, 0, md);
   return "{" + JInt("ticket", (long)ticket) + "," + JStr("symbol", symbol) + "," + JStr("type", buy ? "buy" : "sell") + ","
          + JNum("volume", PositionGetDouble(POSITION_VOLUME), VOLUME_DIGITS) + ","
          + JStr("open_time", IsoUtc(PositionGetInteger(POSITION_TIME_MSC))) + ","
          + JNum("open_price", PositionGetDouble(POSITION_PRICE_OPEN), pd) + ","
          + JNum("current_price", PositionGetDouble(POSITION_PRICE_CURRENT), pd) + ","
          + JNum("sl", PositionGetDouble(POSITION_SL), pd) + "," + JNum("tp", PositionGetDouble(POSITION_TP), pd) + ","
          + JNum("profit", PositionGetDouble(POSITION_PROFIT), md) + "," + JNum("swap", PositionGetDouble(POSITION_SWAP), md) + ","
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
   int total = PositionsTotal();
   string positions = "";
   int sent = 0;
   for(int i = 0; i < total && sent < g_positionsMax; i++)
     {
      ulong ticket = PositionGetTicket(i);
      if(ticket == 0) continue;
      positions += (sent == 0 ? "" : ",") + PositionJson(ticket, i);
      sent++;
     }
   g_noticePositions = total > sent
                       ? IntegerToString(total) + " positions are open: each snapshot carries the first " + IntegerToString(sent) + " and their count"
                       : "";
   double equity = AccountInfoDouble(ACCOUNT_EQUITY);
   int md = MoneyDigits();
   bool connected = TerminalInfoInteger(TERMINAL_CONNECTED) != 0;
   long ping = TerminalInfoInteger(TERMINAL_PING_LAST);   // microseconds; 0 before one is measured
   return "{" + JInt("login", g_login) + ","
          + JStr("time", UtcIso(TimeGMT(), 0)) + ","
          + JNum("balance", AccountInfoDouble(ACCOUNT_BALANCE), md) + "," + JNum("equity", equity, md) + ","
          + JNum("margin", AccountInfoDouble(ACCOUNT_MARGIN), md) + ","
          + JNum("free_margin", AccountInfoDouble(ACCOUNT_MARGIN_FREE), md) + ","
          + JNum("credit", AccountInfoDouble(ACCOUNT_CREDIT), md) + ","
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
      if(err == 4014)   // ERR_FUNCTION_NOT_ALLOWED: the URL is not in the allowed list (yet)
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
   while(to < StringLen(json) && StringFind(",}", ShortToString(StringGetCharacter(json, to))) < 0) to++;
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
string CursorName() { return "TradeHost.cursor." + IntegerToString(g_login); }

// a new login (the first, or the trader switched accounts): all state starts again for it
void StartLogin(long login)
  {
   g_login = login;
   g_helloDone = false;
   g_cursor = GlobalVariableCheck(CursorName()) ? (long)GlobalVariableGet(CursorName()) : -1;
   g_dealsDue = true;
   g_snapshotNow = false;
   g_dealsPerCall = DEALS_PER_CALL;
   g_positionsMax = POSITIONS_MAX;
   g_nextTry = 0;
   g_failures = 0;
   g_lastSnapshot = 0;
   ArrayResize(g_flowTicket, 0);
   ArrayResize(g_flowEquity, 0);
   ArrayResize(g_ex, 0);          // the login's positions are watched afresh (from what the globals kept)
   g_exSavedAt = TimeLocal();
   g_offsetKnown = false;
   LoadOffset();
   g_noticeDeals = "";
   g_noticePositions = "";
   g_equityLow = AccountInfoDouble(ACCOUNT_EQUITY);
   g_equityHigh = g_equityLow;
   g_lastBalance = AccountInfoDouble(ACCOUNT_BALANCE);
   g_lastCredit = AccountInfoDouble(ACCOUNT_CREDIT);
  }

bool SayHello()
  {
   string answer;
   if(Handle("hello", Post("hello", HelloJson(), answer), answer) != RES_DONE) return false;
   g_helloDone = true;
   g_helloAt = TimeLocal();
   g_snapshotSec = (int)MathMax(1, StringToInteger(Field(answer, "snapshot_every_sec")));
   string last = Field(answer, "last_ticket");
   g_cursor = (Field(answer, "full_resync") == "true" || last == "null" || last == "") ? -1 : StringToInteger(last);
   GlobalVariableSet(CursorName(), (double)g_cursor);
   g_dealsDue = true;
   g_status = "connected to the server";
   return true;
  }

// a week past the later of the last quote and the server's clock (TimeCurrent stands still at the
// weekend's last quote; a deposit made on Sunday must be in the selection)
datetime HistoryEnd()
  {
   datetime quote = TimeCurrent(), clock = TimeTradeServer();
   return (quote > clock ? quote : clock) + 7 * 86400;
  }

// the deal tickets after the cursor, ascending (-1 when the history cannot be read)
int PendingDeals(ulong &tickets[])
  {
   ArrayResize(tickets, 0);
   if(!HistorySelect(0, HistoryEnd())) return -1;
   int total = HistoryDealsTotal();
   int n = 0;
   for(int i = 0; i < total; i++)
     {
      if(i % 1000 == 0 && IsStopped()) return -1;
      ulong ticket = HistoryDealGetTicket(i);
      if(ticket == 0 || (long)ticket <= g_cursor) continue;
      ArrayResize(tickets, n + 1, 1000);
      tickets[n++] = ticket;
     }
   if(n > 1) ArraySort(tickets);
   return n;
  }

// a batch the server refuses as malformed: logged with its ticket range, shown, and passed over
void SetAside(ulong first, ulong last, int status, string answer)
  {
   string message = Field(answer, "message");
   Print("TradeHost: the server refused deals #", first, " to #", last, " (HTTP ", status,
         message != "" ? ": " + message : "", "); they are set aside and the next ones are sent");
   g_noticeDeals = "deals #" + IntegerToString((long)first) + " to #" + IntegerToString((long)last)
                   + " were refused by the server and set aside (see the Experts log)";
  }

// the deals after the cursor, oldest first, DealsPerCall a call and CALLS_PER_TICK calls a tick at
// most (the terminal stays responsive during a long history); the cursor moves after each answer
void SendDeals()
  {
   ulong tickets[];
   int n = PendingDeals(tickets);
   if(n < 0) return;
   int at = 0;
   for(int call = 0; call < CALLS_PER_TICK && at < n && !IsStopped(); call++)
     {
      int count = (int)MathMin(g_dealsPerCall, n - at);
      string batch = "";
      for(int k = 0; k < count; k++) batch += (k == 0 ? "" : ",") + DealJson(tickets[at + k]);
      string answer;
      int status = Post("deals", DealsJson(batch), answer);
      int result = Handle("deals", status, answer);
      if(result == RES_TOO_LARGE && g_dealsPerCall > 1)
        {
         g_dealsPerCall = (int)MathMax(1, g_dealsPerCall / 2);   // the same deals again, fewer a call
         continue;
        }
      if(result == RES_MALFORMED || result == RES_TOO_LARGE) SetAside(tickets[at], tickets[at + count - 1], status, answer);
      else if(result != RES_DONE) return;
      at += count;
      g_cursor = (long)tickets[at - 1];
      GlobalVariableSet(CursorName(), (double)g_cursor);
     }
   if(at < n)
     {
      g_status = "sending the deal history: " + IntegerToString(n - at) + " deals to go";
      return;
     }
   g_dealsDue = false;
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
   double equity = AccountInfoDouble(ACCOUNT_EQUITY);
   g_equityLow = equity;
   g_equityHigh = equity;
   g_status = "publishing; last snapshot " + TimeToString(TimeLocal(), TIME_SECONDS);
   return true;
  }

void Work()
  {
   if(g_helloDone && TimeLocal() - g_helloAt >= 86400) g_helloDone = false;   // sessions once a day
   if(!g_helloDone)
     {
      // the login is 0 for a moment after the terminal starts: no hello before a connected terminal
      if(TerminalInfoInteger(TERMINAL_CONNECTED) == 0 || g_login <= 0)
        {
         g_status = "waiting for the terminal to connect to the trade server";
         return;
        }
      LoadOffset();
      if(!g_offsetKnown)
        {
         g_status = "waiting for the trade server's time";
         return;
        }
      if(!SayHello()) return;
     }
   if(g_dealsDue)
     {
      SendDeals();
      if(g_dealsDue || TimeLocal() < g_nextTry) return;
     }
   if(g_snapshotNow || TimeLocal() - g_lastSnapshot >= g_snapshotSec) SendSnapshot();
  }

void ShowStatus()
  {
   string text = "TradeHost monitoring " + EA_VERSION + ": " + g_status;
   if(g_noticeDeals != "") text += "\n" + g_noticeDeals;
   if(g_noticePositions != "") text += "\n" + g_noticePositions;
   Comment(text);
  }

//--- the terminal's events -------------------------------------------------------------
int OnInit()
  {
   // the terminal may keep globals over a re-initialisation (new inputs, another account): start afresh
   g_key = ActivationKey;
   StringTrimLeft(g_key);
   StringTrimRight(g_key);
   g_url = ServerUrl;
   StringTrimLeft(g_url);
   StringTrimRight(g_url);
   while(StringLen(g_url) > 0 && StringGetCharacter(g_url, StringLen(g_url) - 1) == '/')
      g_url = StringSubstr(g_url, 0, StringLen(g_url) - 1);
   g_login = 0;
   g_offsetKnown = false;
   g_status = "starting";
   g_noticeDeals = "";
   g_noticePositions = "";
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
   if(g_login > 0) ExSave();   // the positions' excursions outlive the stop
   EventKillTimer();
   Comment("");
  }

// the equity low/high between snapshots; a move of the balance or credit means a deal to send
void WatchAccount()
  {
   double equity = AccountInfoDouble(ACCOUNT_EQUITY);
   g_equityLow = MathMin(g_equityLow, equity);
   g_equityHigh = MathMax(g_equityHigh, equity);
   double balance = AccountInfoDouble(ACCOUNT_BALANCE);
   double credit = AccountInfoDouble(ACCOUNT_CREDIT);
   if(g_login > 0 && (balance != g_lastBalance || credit != g_lastCredit))
     {
      g_dealsDue = true;
      NoticeFlows();
     }
   g_lastBalance = balance;
   g_lastCredit = credit;
  }

void OnTick()
  {
   if(g_login <= 0) return;
   WatchAccount();
   WatchPositions();
  }

void OnTradeTransaction(const MqlTradeTransaction &trans, const MqlTradeRequest &request, const MqlTradeResult &result)
  {
   if(trans.type == TRADE_TRANSACTION_DEAL_ADD) g_dealsDue = true;
  }

void OnTimer()
  {
   long login = AccountInfoInteger(ACCOUNT_LOGIN);
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
