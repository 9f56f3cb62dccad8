//+------------------------------------------------------------------+
//| TradeHostPublisher.mq5                                           |
//| Publishes this MetaTrader 5 account to TradeHost online          |
//| monitoring: a hello, the deal history, new deals as they happen, |
//| and a snapshot of the account on a timer.                        |
//|                                                                  |
//| Setup: Tools > Options > Expert Advisors > "Allow WebRequest for |
//| listed URL" and add ServerUrl; attach to any chart; paste the    |
//| activation key from the console (Online monitoring).             |
//+------------------------------------------------------------------+
#property copyright "TradeHost"
#property version   "1.10"
#property strict

input string ActivationKey = "";                       // Activation key (from the console)
input string ServerUrl     = "https://my.tradehost.example"; // Server URL

#define EA_VERSION "1.1.0"
#define DEALS_PER_CALL 500

// the protocol's state
bool   g_helloDone   = false;   // hello answered
bool   g_stopped     = false;   // the server refused (4xx): nothing is retried
long   g_cursor      = -1;      // the last deal ticket the server has
int    g_snapshotSec = 10;      // how often the server wants a snapshot
bool   g_dealsDue    = true;    // deals after the cursor may exist
datetime g_nextTry   = 0;       // backoff: no call before this
int    g_failures    = 0;       // server errors in a row
datetime g_lastSnapshot = 0;
double g_equityLow   = 0;
double g_equityHigh  = 0;
string g_status      = "starting";
int    g_backoff[]   = {1, 2, 5, 15, 60};

//--- JSON, written by hand: keys are the protocol's names --------------------
string JEsc(string s)
  {
   StringReplace(s, "\\", "\\\\");
   StringReplace(s, "\"", "\\\"");
   StringReplace(s, "\n", " ");
   StringReplace(s, "\r", " ");
   StringReplace(s, "\t", " ");
   return s;
  }
string JStr(string key, string value)       { return "\"" + key + "\":\"" + JEsc(value) + "\""; }
string JNum(string key, double value, int d) { return "\"" + key + "\":" + DoubleToString(value, d); }
string JInt(string key, long value)          { return "\"" + key + "\":" + IntegerToString(value); }
string JBool(string key, bool value)         { return "\"" + key + "\":" + (value ? "true" : "false"); }
string JNull(string key)                     { return "\"" + key + "\":null"; }

//--- times: the server's clock to ISO-8601 UTC with milliseconds --------------
int ServerOffsetSec()
  {
   // the trade server's offset from UTC, to the nearest quarter hour
   long offset = (long)(TimeTradeServer() - TimeGMT());
   return (int)(MathRound(offset / 900.0) * 900);
  }
string IsoUtc(long serverMsc)
  {
   long utcMsc = serverMsc - (long)ServerOffsetSec() * 1000;
   datetime t = (datetime)(utcMsc / 1000);
   string s = TimeToString(t, TIME_DATE | TIME_SECONDS);   // yyyy.mm.dd hh:mi:ss
   StringReplace(s, ".", "-");
   StringReplace(s, " ", "T");
   return s + "." + StringFormat("%03d", (int)(utcMsc % 1000)) + "Z";
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
   return "{" + JStr("platform", "MT5") + "," + JInt("login", AccountInfoInteger(ACCOUNT_LOGIN)) + ","
          + JStr("server", AccountInfoString(ACCOUNT_SERVER)) + "," + JStr("company", AccountInfoString(ACCOUNT_COMPANY)) + ","
          + JStr("currency", AccountInfoString(ACCOUNT_CURRENCY)) + "," + JInt("leverage", AccountInfoInteger(ACCOUNT_LEVERAGE)) + ","
          + JStr("trade_mode", tradeMode) + "," + JStr("margin_mode", hedging ? "hedging" : "netting") + ","
          + JInt("server_time_offset_sec", ServerOffsetSec()) + "," + JStr("ea_version", EA_VERSION) + ","
          + "\"sessions\":[" + SessionsList() + "]}";
  }

string DealType(long type)
  {
   switch((int)type)
     {
      case DEAL_TYPE_BUY:        return "buy";
      case DEAL_TYPE_SELL:       return "sell";
      case DEAL_TYPE_BALANCE:    return "balance";
      case DEAL_TYPE_CREDIT:     return "credit";
      case DEAL_TYPE_CHARGE:     return "charge";
      case DEAL_TYPE_CORRECTION: return "correction";
      case DEAL_TYPE_BONUS:      return "bonus";
      case DEAL_TYPE_INTEREST:   return "interest";
      default:                   return "commission";   // the DEAL_TYPE_COMMISSION_* family
     }
  }

string DealEntry(long entry)
  {
   if(entry == DEAL_ENTRY_OUT)    return "out";
   if(entry == DEAL_ENTRY_INOUT)  return "inout";
   if(entry == DEAL_ENTRY_OUT_BY) return "out_by";
   return "in";
  }

// one deal; equity_before only for a balance deal seen as it happens (the equity less its amount)
string DealJson(ulong ticket, bool live)
  {
   string symbol = HistoryDealGetString(ticket, DEAL_SYMBOL);
   string type = DealType(HistoryDealGetInteger(ticket, DEAL_TYPE));
   double profit = HistoryDealGetDouble(ticket, DEAL_PROFIT);
   int digits = symbol == "" ? 0 : (int)SymbolInfoInteger(symbol, SYMBOL_DIGITS);
   string equityBefore = (type == "balance" && live)
                         ? JNum("equity_before", AccountInfoDouble(ACCOUNT_EQUITY) - profit, 2)
                         : JNull("equity_before");
   return "{" + JInt("ticket", (long)ticket) + "," + JInt("order", HistoryDealGetInteger(ticket, DEAL_ORDER)) + ","
          + JInt("position_id", HistoryDealGetInteger(ticket, DEAL_POSITION_ID)) + ","
          + JStr("time", IsoUtc(HistoryDealGetInteger(ticket, DEAL_TIME_MSC))) + ","
          + JStr("type", type) + "," + JStr("entry", DealEntry(HistoryDealGetInteger(ticket, DEAL_ENTRY))) + ","
          + JStr("symbol", symbol) + "," + JInt("digits", digits) + ","
          + JNum("volume", HistoryDealGetDouble(ticket, DEAL_VOLUME), 2) + ","
          + JNum("price", HistoryDealGetDouble(ticket, DEAL_PRICE), digits) + ","
          + JNum("profit", profit, 2) + "," + JNum("swap", HistoryDealGetDouble(ticket, DEAL_SWAP), 2) + ","
          + JNum("commission", HistoryDealGetDouble(ticket, DEAL_COMMISSION), 2) + ","
          + JNum("fee", HistoryDealGetDouble(ticket, DEAL_FEE), 2) + ","
          + JInt("magic", HistoryDealGetInteger(ticket, DEAL_MAGIC)) + ","
          + JStr("comment", StringSubstr(HistoryDealGetString(ticket, DEAL_COMMENT), 0, 64)) + ","
          + equityBefore + "}";
  }

string DealsJson(string deals)
  {
   return "{" + JInt("login", AccountInfoInteger(ACCOUNT_LOGIN)) + ",\"deals\":[" + deals + "]}";
  }

string PositionJson(ulong ticket)
  {
   string symbol = PositionGetString(POSITION_SYMBOL);
   int digits = (int)SymbolInfoInteger(symbol, SYMBOL_DIGITS);
   bool buy = PositionGetInteger(POSITION_TYPE) == POSITION_TYPE_BUY;
   return "{" + JInt("ticket", (long)ticket) + "," + JStr("symbol", symbol) + "," + JStr("type", buy ? "buy" : "sell") + ","
          + JNum("volume", PositionGetDouble(POSITION_VOLUME), 2) + ","
          + JStr("open_time", IsoUtc(PositionGetInteger(POSITION_TIME_MSC))) + ","
          + JNum("open_price", PositionGetDouble(POSITION_PRICE_OPEN), digits) + ","
          + JNum("current_price", PositionGetDouble(POSITION_PRICE_CURRENT), digits) + ","
          + JNum("sl", PositionGetDouble(POSITION_SL), digits) + "," + JNum("tp", PositionGetDouble(POSITION_TP), digits) + ","
          + JNum("profit", PositionGetDouble(POSITION_PROFIT), 2) + "," + JNum("swap", PositionGetDouble(POSITION_SWAP), 2) + "}";
  }

string SnapshotJson()
  {
   string positions = "";
   for(int i = 0; i < PositionsTotal() && i < 1000; i++)
     {
      ulong ticket = PositionGetTicket(i);
      if(ticket == 0) continue;
      positions += (positions == "" ? "" : ",") + PositionJson(ticket);
     }
   double equity = AccountInfoDouble(ACCOUNT_EQUITY);
   return "{" + JInt("login", AccountInfoInteger(ACCOUNT_LOGIN)) + ","
          + JStr("time", IsoUtc((long)TimeTradeServer() * 1000)) + ","
          + JNum("balance", AccountInfoDouble(ACCOUNT_BALANCE), 2) + "," + JNum("equity", equity, 2) + ","
          + JNum("margin", AccountInfoDouble(ACCOUNT_MARGIN), 2) + ","
          + JNum("free_margin", AccountInfoDouble(ACCOUNT_MARGIN_FREE), 2) + ","
          + JNum("credit", AccountInfoDouble(ACCOUNT_CREDIT), 2) + ","
          + JNum("equity_low", MathMin(g_equityLow, equity), 2) + "," + JNum("equity_high", MathMax(g_equityHigh, equity), 2) + ","
          + JBool("terminal_connected", TerminalInfoInteger(TERMINAL_CONNECTED) != 0) + ","
          + "\"positions\":[" + positions + "]}";
  }

//--- HTTP ------------------------------------------------------------------------
// Posts `json`; answers the HTTP status (-1 when nothing came back) and the body in `answer`.
int Post(string path, string json, string &answer)
  {
   char body[], result[];
   string headers;
   int size = StringToCharArray(json, body, 0, WHOLE_ARRAY, CP_UTF8);
   ArrayResize(body, size - 1);   // without the terminating zero
   string url = ServerUrl + "/api/ingest/v1/" + path;
   string request = "Content-Type: application/json\r\nAuthorization: Bearer " + ActivationKey + "\r\n";
   ResetLastError();
   int status = WebRequest("POST", url, request, 10000, body, result, headers);
   if(status == -1 && GetLastError() == 4014)
     {
      Stop("allow WebRequest for " + ServerUrl + " in Tools > Options > Expert Advisors");
      return -1;
     }
   answer = CharArrayToString(result, 0, WHOLE_ARRAY, CP_UTF8);
   if(status == 429) g_nextTry = TimeLocal() + RetryAfter(headers);
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

void Stop(string why)
  {
   g_stopped = true;
   g_status = "stopped: " + why;
  }

// what a call's status means: true when it succeeded; a 4xx stops, a 5xx backs off
bool Handle(int status, string answer)
  {
   if(status >= 200 && status < 300)
     {
      g_failures = 0;
      return true;
     }
   if(status == 429) { g_status = "the server asks to wait"; return false; }
   if(status >= 400 && status < 500)
     {
      string message = Field(answer, "message");
      Stop(message != "" ? message : "the server refused (HTTP " + IntegerToString(status) + ")");
      return false;
     }
   int pause = g_backoff[MathMin(g_failures, ArraySize(g_backoff) - 1)];
   g_failures++;
   g_nextTry = TimeLocal() + pause;
   g_status = "the server is not answering; trying again in " + IntegerToString(pause) + " s";
   return false;
  }

//--- the work of a timer tick -------------------------------------------------------
string CursorName() { return "TradeHost.cursor." + IntegerToString(AccountInfoInteger(ACCOUNT_LOGIN)); }

bool SayHello()
  {
   string answer;
   if(!Handle(Post("hello", HelloJson(), answer), answer)) return false;
   g_helloDone = true;
   g_snapshotSec = (int)MathMax(1, StringToInteger(Field(answer, "snapshot_every_sec")));
   string last = Field(answer, "last_ticket");
   g_cursor = (Field(answer, "full_resync") == "true" || last == "null" || last == "") ? -1 : StringToInteger(last);
   GlobalVariableSet(CursorName(), (double)g_cursor);
   g_dealsDue = true;
   return true;
  }

// the deals after the cursor, oldest first, DEALS_PER_CALL a call; the cursor moves after each answer
bool SendDeals(bool live)
  {
   if(!HistorySelect(0, TimeCurrent() + 86400)) return false;
   int total = HistoryDealsTotal();
   string batch = "";
   int inBatch = 0;
   long batchMax = g_cursor;
   for(int i = 0; i < total; i++)
     {
      ulong ticket = HistoryDealGetTicket(i);
      if((long)ticket <= g_cursor) continue;
      batch += (inBatch == 0 ? "" : ",") + DealJson(ticket, live);
      inBatch++;
      batchMax = MathMax(batchMax, (long)ticket);
      if(inBatch == DEALS_PER_CALL || i == total - 1)
        {
         string answer;
         if(!Handle(Post("deals", DealsJson(batch), answer), answer)) return false;
         g_cursor = batchMax;
         GlobalVariableSet(CursorName(), (double)g_cursor);
         batch = "";
         inBatch = 0;
        }
     }
   if(inBatch > 0)
     {
      string answer;
      if(!Handle(Post("deals", DealsJson(batch), answer), answer)) return false;
      g_cursor = batchMax;
      GlobalVariableSet(CursorName(), (double)g_cursor);
     }
   g_dealsDue = false;
   return true;
  }

bool SendSnapshot()
  {
   string answer;
   if(!Handle(Post("snapshot", SnapshotJson(), answer), answer)) return false;
   g_lastSnapshot = TimeLocal();
   double equity = AccountInfoDouble(ACCOUNT_EQUITY);
   g_equityLow = equity;
   g_equityHigh = equity;
   g_status = "publishing; last snapshot " + TimeToString(TimeLocal(), TIME_SECONDS);
   return true;
  }

//--- the terminal's events -------------------------------------------------------------
int OnInit()
  {
   // the terminal keeps globals over a change of the inputs: start afresh (a new key, a new try)
   g_stopped = false;
   g_helloDone = false;
   g_nextTry = 0;
   if(StringLen(ActivationKey) < 10)
     {
      Stop("paste the activation key from the console into the inputs");
      Comment("TradeHost monitoring: " + g_status);
      return INIT_SUCCEEDED;
     }
   if(GlobalVariableCheck(CursorName())) g_cursor = (long)GlobalVariableGet(CursorName());
   g_equityLow = AccountInfoDouble(ACCOUNT_EQUITY);
   g_equityHigh = g_equityLow;
   EventSetTimer(1);
   return INIT_SUCCEEDED;
  }

void OnDeinit(const int reason)
  {
   EventKillTimer();
   Comment("");
  }

void OnTick()
  {
   double equity = AccountInfoDouble(ACCOUNT_EQUITY);
   g_equityLow = MathMin(g_equityLow, equity);
   g_equityHigh = MathMax(g_equityHigh, equity);
  }

void OnTradeTransaction(const MqlTradeTransaction &trans, const MqlTradeRequest &request, const MqlTradeResult &result)
  {
   if(trans.type == TRADE_TRANSACTION_DEAL_ADD) g_dealsDue = true;
  }

void OnTimer()
  {
   OnTick();
   if(!g_stopped && TimeLocal() >= g_nextTry)
     {
      if(!g_helloDone) SayHello();
      if(g_helloDone && g_dealsDue && TimeLocal() >= g_nextTry) SendDeals(g_cursor >= 0);
      if(g_helloDone && !g_dealsDue && TimeLocal() >= g_nextTry && TimeLocal() - g_lastSnapshot >= g_snapshotSec) SendSnapshot();
     }
   Comment("TradeHost monitoring: " + g_status);
  }
//+------------------------------------------------------------------+
