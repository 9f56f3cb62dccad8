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
//| activation key from the console (Online monitoring).             |
//+------------------------------------------------------------------+
#property copyright "TradeHost"
#property version   "1.10"
#property strict

input string ActivationKey = "";                       // Activation key (from the console)
input string ServerUrl     = "https://my.tradehost.example"; // Server URL

#define EA_VERSION "1.1.0"
#define DEALS_PER_CALL 500
#define OP_BALANCE 6
#define OP_CREDIT  7

bool     g_helloDone   = false;
bool     g_stopped     = false;
datetime g_cursor      = 0;      // close time of the last order the server has (resent from a minute before)
int      g_snapshotSec = 10;
int      g_historySeen = -1;     // OrdersHistoryTotal() at the last send: a change means new closed orders
datetime g_nextTry     = 0;
int      g_failures    = 0;
datetime g_lastSnapshot = 0;
double   g_equityLow   = 0;
double   g_equityHigh  = 0;
string   g_status      = "starting";
int      g_backoff[]   = {1, 2, 5, 15, 60};

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
string JStr(string key, string value)        { return "\"" + key + "\":\"" + JEsc(value) + "\""; }
string JNum(string key, double value, int d) { return "\"" + key + "\":" + DoubleToString(value, d); }
string JInt(string key, long value)          { return "\"" + key + "\":" + IntegerToString(value); }
string JBool(string key, bool value)         { return "\"" + key + "\":" + (value ? "true" : "false"); }
string JNull(string key)                     { return "\"" + key + "\":null"; }

//--- times: the server's clock to ISO-8601 UTC ----------------------------------
int ServerOffsetSec()
  {
   long offset = (long)(TimeCurrent() - TimeGMT());
   return (int)(MathRound(offset / 900.0) * 900);
  }
string IsoUtc(datetime serverTime)
  {
   datetime t = serverTime - ServerOffsetSec();
   string s = TimeToString(t, TIME_DATE | TIME_SECONDS);   // yyyy.mm.dd hh:mi:ss
   StringReplace(s, ".", "-");
   StringReplace(s, " ", "T");
   return s + ".000Z";
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
   return "{" + JStr("platform", "MT4") + "," + JInt("login", AccountNumber()) + ","
          + JStr("server", AccountServer()) + "," + JStr("company", AccountCompany()) + ","
          + JStr("currency", AccountCurrency()) + "," + JInt("leverage", AccountLeverage()) + ","
          + JStr("trade_mode", tradeMode) + "," + JStr("margin_mode", "hedging") + ","
          + JInt("server_time_offset_sec", ServerOffsetSec()) + "," + JStr("ea_version", EA_VERSION) + ","
          + "\"sessions\":[" + SessionsList() + "]}";
  }

// one deal of the selected order: its opening ("in") or its closing ("out"); a balance or credit operation is one "in"
string DealJson(bool closing)
  {
   int type = OrderType();
   string symbol = OrderSymbol();
   int digits = symbol == "" ? 0 : (int)MarketInfo(symbol, MODE_DIGITS);
   bool cash = type == OP_BALANCE || type == OP_CREDIT;
   bool buy = type == OP_BUY;
   string dealType = cash ? (type == OP_BALANCE ? "balance" : "credit") : ((buy != closing) ? "buy" : "sell");
   long ticket = (long)OrderTicket() * 2 + (closing ? 1 : 0);
   // an order's money (profit, swap) comes with its closing; the commission is split over both sides
   double profit = (closing || cash) ? OrderProfit() : 0;
   double swap = closing ? OrderSwap() : 0;
   return "{" + JInt("ticket", ticket) + "," + JInt("order", OrderTicket()) + "," + JInt("position_id", OrderTicket()) + ","
          + JStr("time", IsoUtc(closing ? OrderCloseTime() : OrderOpenTime())) + ","
          + JStr("type", dealType) + "," + JStr("entry", closing ? "out" : "in") + ","
          + JStr("symbol", symbol) + "," + JInt("digits", digits) + ","
          + JNum("volume", cash ? 0 : OrderLots(), 2) + ","
          + JNum("price", cash ? 0 : (closing ? OrderClosePrice() : OrderOpenPrice()), digits) + ","
          + JNum("profit", profit, 2) + "," + JNum("swap", swap, 2) + ","
          + JNum("commission", cash ? 0 : OrderCommission() / 2, 2) + "," + JNum("fee", 0, 2) + ","
          + JInt("magic", OrderMagicNumber()) + "," + JStr("comment", StringSubstr(OrderComment(), 0, 64)) + ","
          + JNull("equity_before") + "}";
  }

string DealsJson(string deals)
  {
   return "{" + JInt("login", AccountNumber()) + ",\"deals\":[" + deals + "]}";
  }

string PositionJson()
  {
   int digits = (int)MarketInfo(OrderSymbol(), MODE_DIGITS);
   bool buy = OrderType() == OP_BUY;
   double current = buy ? MarketInfo(OrderSymbol(), MODE_BID) : MarketInfo(OrderSymbol(), MODE_ASK);
   return "{" + JInt("ticket", OrderTicket()) + "," + JStr("symbol", OrderSymbol()) + "," + JStr("type", buy ? "buy" : "sell") + ","
          + JNum("volume", OrderLots(), 2) + "," + JStr("open_time", IsoUtc(OrderOpenTime())) + ","
          + JNum("open_price", OrderOpenPrice(), digits) + "," + JNum("current_price", current, digits) + ","
          + JNum("sl", OrderStopLoss(), digits) + "," + JNum("tp", OrderTakeProfit(), digits) + ","
          + JNum("profit", OrderProfit(), 2) + "," + JNum("swap", OrderSwap(), 2) + "}";
  }

string SnapshotJson()
  {
   string positions = "";
   for(int i = 0; i < OrdersTotal() && i < 1000; i++)
     {
      if(!OrderSelect(i, SELECT_BY_POS, MODE_TRADES)) continue;
      if(OrderType() != OP_BUY && OrderType() != OP_SELL) continue;   // pending orders are no positions
      positions += (positions == "" ? "" : ",") + PositionJson();
     }
   double equity = AccountEquity();
   return "{" + JInt("login", AccountNumber()) + "," + JStr("time", IsoUtc(TimeCurrent())) + ","
          + JNum("balance", AccountBalance(), 2) + "," + JNum("equity", equity, 2) + ","
          + JNum("margin", AccountMargin(), 2) + "," + JNum("free_margin", AccountFreeMargin(), 2) + ","
          + JNum("credit", AccountCredit(), 2) + ","
          + JNum("equity_low", MathMin(g_equityLow, equity), 2) + "," + JNum("equity_high", MathMax(g_equityHigh, equity), 2) + ","
          + JBool("terminal_connected", IsConnected()) + ","
          + "\"positions\":[" + positions + "]}";
  }

//--- HTTP ------------------------------------------------------------------------
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
   if(status == -1 && GetLastError() == 4060)
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

void Stop(string why)
  {
   g_stopped = true;
   g_status = "stopped: " + why;
  }

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
string CursorName() { return "TradeHost.cursor." + IntegerToString(AccountNumber()); }

bool SayHello()
  {
   string answer;
   if(!Handle(Post("hello", HelloJson(), answer), answer)) return false;
   g_helloDone = true;
   g_snapshotSec = (int)MathMax(1, StringToInteger(Field(answer, "snapshot_every_sec")));
   if(Field(answer, "full_resync") == "true") g_cursor = 0;
   g_historySeen = -1;
   return true;
  }

// the orders closed since the cursor (a minute's overlap: the server keeps each deal once)
bool SendDeals()
  {
   int total = OrdersHistoryTotal();
   datetime from = g_cursor > 60 ? g_cursor - 60 : 0;
   datetime newest = g_cursor;
   string batch = "";
   int inBatch = 0;
   for(int i = 0; i < total; i++)
     {
      if(!OrderSelect(i, SELECT_BY_POS, MODE_HISTORY)) continue;
      int type = OrderType();
      bool cash = type == OP_BALANCE || type == OP_CREDIT;
      if(!cash && type != OP_BUY && type != OP_SELL) continue;   // cancelled pending orders
      if(OrderCloseTime() < from) continue;
      batch += (inBatch == 0 ? "" : ",") + DealJson(false);
      inBatch++;
      if(!cash)
        {
         batch += "," + DealJson(true);
         inBatch++;
        }
      if(OrderCloseTime() > newest) newest = OrderCloseTime();
      if(inBatch >= DEALS_PER_CALL - 1)
        {
         string answer;
         if(!Handle(Post("deals", DealsJson(batch), answer), answer)) return false;
         batch = "";
         inBatch = 0;
        }
     }
   if(inBatch > 0)
     {
      string answer;
      if(!Handle(Post("deals", DealsJson(batch), answer), answer)) return false;
     }
   g_cursor = newest;
   GlobalVariableSet(CursorName(), (double)g_cursor);
   g_historySeen = total;
   return true;
  }

bool SendSnapshot()
  {
   string answer;
   if(!Handle(Post("snapshot", SnapshotJson(), answer), answer)) return false;
   g_lastSnapshot = TimeLocal();
   g_equityLow = AccountEquity();
   g_equityHigh = g_equityLow;
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
   if(GlobalVariableCheck(CursorName())) g_cursor = (datetime)GlobalVariableGet(CursorName());
   g_equityLow = AccountEquity();
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
   g_equityLow = MathMin(g_equityLow, AccountEquity());
   g_equityHigh = MathMax(g_equityHigh, AccountEquity());
  }

void OnTimer()
  {
   OnTick();
   if(!g_stopped && TimeLocal() >= g_nextTry)
     {
      if(!g_helloDone) SayHello();
      bool dealsDue = g_helloDone && OrdersHistoryTotal() != g_historySeen;
      if(dealsDue && TimeLocal() >= g_nextTry) dealsDue = !SendDeals();
      if(g_helloDone && !dealsDue && TimeLocal() >= g_nextTry && TimeLocal() - g_lastSnapshot >= g_snapshotSec) SendSnapshot();
     }
   Comment("TradeHost monitoring: " + g_status);
  }
//+------------------------------------------------------------------+
