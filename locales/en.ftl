## Shared

button-login = 🔐 Log in
button-cancel = Cancel
button-back = ‹ Back
open-private-chat = Open a private chat with me
error-generic = Something went wrong on our side. Please try again in a moment. (Reference: { $ref })
error-exchange-network = The exchange cannot be reached right now. Please try again in a minute. (Reference: { $ref })
error-exchange-timeout = The exchange did not answer in time. Please try again in a minute. (Reference: { $ref })
error-exchange-rate-limited = The exchange asks us to slow down. Please try again in { $seconds ->
    [one] 1 second
   *[other] { $seconds } seconds
  }.
error-exchange-server = The exchange has a problem right now. Please try again later. (Reference: { $ref })
error-exchange-refused = The exchange turned this down. Please check what you entered and try again. (Reference: { $ref })
exchange-refused-details = it did not accept the details given. Please check them and try again.
exchange-refused-forbidden = it does not allow this for your account.
error-exchange-not-found = The exchange does not know that item.
error-exchange-forbidden = The exchange does not allow this for your account.
error-exchange-bad-response = The exchange sent an answer we could not read. Please try again later. (Reference: { $ref })
error-store-unavailable = I cannot reach my storage right now, so nothing was done. Please try again in a minute. (Reference: { $ref })
session-expired = Your exchange session has expired. Log in again to continue.
login-required = Please log in to your exchange account first.
flow-hint-text = I am waiting for a text message here. Send it, or /cancel to stop.
flow-hint-command = You are in the middle of something. Finish it first, or send /cancel to stop.
flow-cancelled = Cancelled. Nothing was changed.
nothing-to-cancel = There is nothing to cancel.
flood-slow-down = You are sending messages very fast. Please wait a few seconds.
flood-slow-down-tap = Slow down, please: wait a few seconds.
group-private-only = I only talk about accounts in a private chat. Tap below to open one.
group-help = In a group I answer /prices and /price with a currency, e.g. /price btc. Everything about your account (and /help with all commands) is in our private chat: tap below to open it.
unknown-command = I do not know that command. Send /help for the list.
unknown-command-suggest = I do not know { $command }. Did you mean { $suggestion }? Send /help for the list.
unknown-text = I did not understand that. Send /help to see what I can do.
unknown-secret-deleted = That looked like a code or PIN, so I deleted it. The step it was for has ended; start again with the command (for example /withdraw), or send /help.
button-inactive = This button is no longer active.

## /start and /help

start-welcome =
    Welcome, { $name }! 👋
    I am the Telegram desk of your crypto exchange account.

    With me you can check prices and balances, buy, sell and send crypto, withdraw euros to your bank, and get alerts when a price crosses your level.
    Type @{ $bot } btc in any chat for a price card.
home-title = 🏠 Home · { $who }
home-total = Total balance: { $amount }
home-total-unknown = Total balance: the exchange did not say just now.
home-moves-title = Today (24 h):
home-move = { $code } { $price } ({ $change })
home-moves-none = No currencies held or watched yet: /prices shows them all, /alert watches one.
home-moves-unknown = Prices could not be read just now.
home-orders-none = No open orders.
home-orders-title = { $count ->
    [one] 1 open order:
   *[other] { $count } open orders:
  }
home-button-buy = 🛒 Buy
home-button-sell = 💶 Sell
home-button-alerts = 🔔 Alerts
home-button-transactions = 📜 Transactions
home-button-refresh = 🔄 Refresh
help-text =
    What I can do:
    /home – where you stand: balance, today's prices, open orders
    /login – log in with e-mail, password and 2FA code
    /logout – log out and forget every secret
    /me – your account details
    /balance – your balances
    /prices – all prices with 24 h change
    /price btc – one price
    /buy, /sell – trade crypto against euros
    /send – send crypto to an address
    /withdraw – euros to your bank account
    /deposit – your deposit addresses
    /banks – your bank accounts
    /addresses – your saved crypto addresses
    /transactions – your transactions; /tx ID for one
    /limits – your limits
    /fees – what an order would cost
    /alerts – price alerts
    /recurring – buy a fixed amount on a schedule
    /settings – language, notifications, security
    /safety – allowlist, cooling-off, your own limits
    /freeze – stop every money action at once (no code needed)
    /language – change the language
    /cancel – stop what you are doing

command-home = 🏠 Home: balance, today's prices, open orders
command-start = Start
command-help = What I can do
command-login = Log in
command-logout = Log out
command-me = Account details
command-balance = Balances
command-prices = All prices
command-price = One price
command-buy = Buy crypto
command-sell = Sell crypto
command-send = Send crypto
command-withdraw = Withdraw euros
command-deposit = Deposit addresses
command-banks = Bank accounts
command-transactions = Transactions
command-limits = Limits
command-fees = Fees
command-alerts = Price alerts
command-settings = Settings
command-notifications = Notifications, quiet hours, daily digest
command-language = Language
command-cancel = Cancel the current step

## /language

language-choose = Choose your language:
language-set = Language set to English.

## /login

login-already = You are already logged in as { $email }, until { $time }. To use another account, send /logout first.
login-ask-email = Please send the e-mail address of your exchange account. (/cancel to stop)
login-bad-email = That does not look like an e-mail address. Please send it again, e.g. name@example.com.
login-ask-password = Now send your password. I delete the message right away.
login-ask-code = Last step: send the 6-digit code from your authenticator app.
login-bad-code-format = The code is the 6 digits your authenticator app shows. Please send them.
login-wrong-code = That code was not accepted. Please send the current code from your authenticator app. ({ $left ->
    [one] 1 try left
   *[other] { $left } tries left
  })
login-wrong-credentials = E-mail or password is wrong. Send /login to try again. ({ $left ->
    [one] 1 try left
   *[other] { $left } tries left
  })
login-too-many-codes = Too many wrong codes. Send /login to start again.
login-rate-limited = Too many failed logins. Please wait until { $time } and try again.
login-checking = Checking with the exchange…
login-success = ✅ Logged in as { $email }. Your session lasts until { $time }.
login-quick-ask-code = Welcome back, { $email }. Send the current 6-digit code from your authenticator app to log in again.
login-confirm-ask-password = Send the password of { $email }. I delete the message right away. (/cancel to stop)
login-confirm-ask-code = Send the current 6-digit code from your authenticator app for { $email }. (/cancel to stop)
login-expiry-warning = Your exchange session ends at { $time }. To stay logged in, send me a fresh 2FA code from your authenticator app (or tap the button below).
login-expiry-warning-tap = Your exchange session ends at { $time }. To stay logged in, tap the button below and log in again.
login-renew-ask-code = You are logged in as { $email } until { $time }. To stay logged in longer, send the current 6-digit code from your authenticator app. To use another account, send /logout instead.
login-renew-intro = You are logged in as { $email } until { $time }. To stay logged in, log in again now. To use another account, send /logout instead.
login-stay-button = Stay logged in

## /logout

logout-done = You are logged out. I have forgotten your session and every secret I held for you.
logout-not-logged-in = You were not logged in. I have forgotten every secret I held for you anyway.
logout-auto = You were logged out after { $minutes ->
    [one] 1 minute
   *[other] { $minutes } minutes
  } without activity, as your settings ask.

## Amounts

amount-error-empty = Please send an amount.
amount-error-not-a-number = That is not an amount. Send a number like 100 or 100.50.
amount-error-negative = The amount cannot be negative.
amount-error-zero = The amount must be more than zero.
amount-error-exponent = Please write the amount out in full, without an exponent (e.g. 0.001, not 1e-3).
amount-error-ambiguous-separator = I cannot read that amount: its separators do not fit together. Write it like 1,500.50 or 1500.50.
amount-error-too-many-decimals = That has too many decimals: at most { $decimals } here.
amount-error-too-long = That amount is far too long.
amount-error-too-large = That amount is too large.

## /balance

balance-title = 💼 Your balances
balance-eur = 💶 Euro: { $amount }
balance-total = 📊 Total value: { $amount }
balance-crypto-line = • { $amount } ≈ { $value }
balance-crypto-line-plain = • { $amount }
balance-zero-line = No balance in { $codes }
balance-no-crypto = You hold no crypto yet. /buy gets you some.

## /deposit

deposit-title = 📥 <b>Your deposit addresses</b>
deposit-showing-newest = Showing the newest { $shown } of { $total }.
deposit-item =
    <b>{ $name }</b>
    <code>{ $address }</code>
deposit-warning = Send only the named currency to each address; anything else may be lost. Tap an address to copy it, or a button below for its QR code.
deposit-none = You have no deposit address yet. Tap below to make one.
deposit-button-new = ➕ New address
deposit-button-qr = 📷 QR: { $name } { $tail }
deposit-qr-caption =
    <b>{ $name }</b> deposit address:
    <code>{ $address }</code>
deposit-new-created =
    ✅ Your new <b>{ $name }</b> deposit address:
    <code>{ $address }</code>
    Send only { $name } to it.
deposit-address-gone = That address is no longer in your list. Send /deposit to see the current ones.
deposit-picker-expired = This choice has expired. Send /deposit again.
deposit-choose-currency = Which currency do you want to receive? Tap one, or type its code (e.g. BTC). (/cancel to stop)
deposit-unknown-currency = I do not know “{ $currency }”. Choose one of: { $list }
deposit-receive-paused = Receiving { $name } ({ $currency }) is paused at the exchange right now, so I cannot make an address for it. Please try again later.

## /banks

banks-title = 🏦 <b>Your bank accounts</b> ({ $count })
banks-card =
    <b>{ $name }</b>
    IBAN: { $iban }
    BIC: <code>{ $bic }</code>
    Reference number: <code>{ $reference }</code>
    State: { $state }
banks-state-verified = ✅ verified
banks-state-pending = ⏳ waiting for the verification deposit
banks-none = You have no bank account at the exchange yet.
banks-pending-hint = An account that waits for verification becomes usable once the exchange has received the small verification deposit from it.

## /transactions

transactions-button-export = ⬇️ Export
export-choose = Which period should the statement (a CSV file) cover?
export-range-this-month = This month
export-range-last-month = Last month
export-range-this-year = This year
export-range-last-year = Last year
export-range-all = All
export-collecting = Collecting… { $count ->
    [one] 1 transaction
   *[other] { $count } transactions
  }
export-collected = Collected { $count ->
    [one] 1 transaction
   *[other] { $count } transactions
  }.
export-empty = No transactions in that period ({ $range }).
export-caption = 📄 Your statement: { $range }, { $count ->
    [one] 1 transaction
   *[other] { $count } transactions
  } (UTF-8 CSV, dates in UTC).
export-too-large = The oldest { $left ->
    [one] transaction
   *[other] { $left } transactions
  } did not fit Telegram's 50 MB file limit: export a shorter period for them.
export-koinly-button = 🧾 File for Koinly (taxes)
export-koinly-choose = Which period should the file for Koinly cover? It holds your completed transactions in Koinly's import format (a CSV file), ready for your tax report.
export-koinly-caption = 🧾 For Koinly: { $range }, { $count ->
    [one] 1 completed transaction
   *[other] { $count } completed transactions
  }. In Koinly, add it as a custom CSV file of a wallet for this exchange.
export-koinly-unreadable = { $count ->
    [one] 1 completed transaction is
   *[other] { $count } completed transactions are
  } not in it: the exchange did not give the amounts. /transactions shows them.
statement-column-date = Date (UTC)
statement-column-number = Number
statement-column-type = Type
statement-column-state = Status
statement-column-amount = Amount
statement-column-fee = Fee
statement-column-details = Address or reference
statement-column-bot-order = Your order in this bot
statement-column-rate = Rate
statement-rate = { $rate } per { $currency }
statement-koinly-description = { $type } #{ $id }
transactions-title = 📜 <b>Your transactions</b>
transactions-title-filtered = 📜 <b>Your { $currency } transactions</b>
transactions-page = Page { $page }, newest first
transactions-line =
    { $state } · <b>#{ $id }</b> { $type }{ $amount }
    { $date }
transactions-hint = Send /tx and a number for the details, e.g. /tx { $id }.
transactions-none = You have no transactions yet.
transactions-none-filtered = You have no { $currency } transactions.
transactions-no-more = There are no more transactions.
transactions-button-prev = ‹ Previous
transactions-button-next = Next ›
transactions-button-filter = 🔎 Filter by currency
transactions-button-filter-on = 🔎 Filter: { $currency }
transactions-button-all = All currencies
transactions-choose-filter = Show the transactions of which currency?
transactions-unknown-currency = I do not know the currency “{ $currency }”. Try one of: { $list }, or /transactions all.
transactions-type-buy = Buy
transactions-type-sell = Sell
transactions-type-send = Crypto withdrawal
transactions-type-fiat-withdraw = Euro withdrawal
transactions-type-fiat-deposit = Euro deposit
transactions-type-crypto-deposit = Crypto deposit
transactions-type-other = Other transaction
transactions-state-opened = ⏳ open
transactions-state-success = ✅ done
transactions-state-error = ❌ failed
transactions-state-other = ❔ unknown
transactions-bad-id = Send the transaction number after /tx, e.g. /tx { $id } for your newest one. It is a whole number above zero.
transactions-bad-id-plain = Send the transaction number after /tx, as /transactions lists it. It is a whole number above zero.
transactions-not-found = There is no transaction #{ $id } in your account.
transactions-detail-title = 🧾 <b>Transaction #{ $id }</b>
transactions-detail-type = Type: { $type }
transactions-detail-state = State: { $state }
transactions-detail-amount = Amount: { $amount }
transactions-detail-fee = Fee: { $fee }
transactions-detail-miner-fee = Miner fee: { $fee }
transactions-detail-price = Price: { $price } per { $currency }
transactions-detail-address = Address: <code>{ $address }</code>
transactions-detail-reference = Reference number: <code>{ $reference }</code>
transactions-detail-created = Created: { $date }
transactions-detail-updated = Updated: { $date }

## /settings

settings-title = ⚙️ <b>Settings</b>
settings-language-line = 🌐 Language: { $language }
settings-notifications-line = 🔔 Notifications: price alerts { $alerts }, order updates { $orders }, session expiry { $expiry }, daily digest { $digest }
settings-remember-line = 🔑 Remember password for quick re-login: { $state }
settings-autologout-line = ⏱ Auto-logout: { $value }
settings-autologout-never = never
settings-autologout-after = after { $minutes ->
    [one] 1 minute
   *[other] { $minutes } minutes
  } without activity
settings-hint = Tap to change. You can also type, e.g. /settings alerts silent or /settings logout 30.
settings-on = on
settings-off = off
settings-button-alerts = { $mode ->
    [silent] 🔕
    [off] ⛔
   *[on] 🔔
  } Price alerts: { $state }
settings-button-orders = { $mode ->
    [silent] 🔕
    [off] ⛔
   *[on] 🔔
  } Order updates: { $state }
settings-button-expiry = { $mode ->
    [silent] 🔕
    [off] ⛔
   *[on] 🔔
  } Expiry warnings: { $state }
settings-button-digest = { $mode ->
    [silent] 🔕
    [off] ⛔
   *[on] ☀️
  } Daily digest: { $state }
settings-button-notifications = 🔔 Notifications, quiet hours…
settings-mode-on = on
settings-mode-silent = silent
settings-mode-off = off
settings-button-remember = 🔑 Remember password: { $state }
settings-button-autologout-off = ⏱ Never
settings-button-autologout = { $minutes } min
settings-saved = ✅ Saved.
settings-usage = I did not understand that setting. Examples: /settings language de, /settings alerts off, /settings orders silent, /settings digest on, /settings expiry off, /settings remember on, /settings logout 30 (or off).
settings-remember-on-explained = 🔑 Remember password is on. From your next /login I keep your password, encrypted, and use it only to log you in again when your session ends, together with a fresh 2FA code that you send me. I never keep your 2FA secret, so a code from you is always needed. Turn it off here at any time and I forget the password.
settings-remember-off-done = 🔑 Remember password is off. I have forgotten your password; the next login asks for it again.

## /me

me-title = 👤 Your account
me-name = Name: { $value }
me-email = E-mail: { $value }
me-address = Address: { $value }
me-birth-date = Date of birth: { $value }
me-account-type = Account type: { $value }
me-type-personal = personal
me-type-business = business
me-company-title = 🏢 Company
me-company-name = Company: { $value }
me-company-address = Company address: { $value }
me-vat-number = VAT number: { $value }
me-registration-number = Registration number: { $value }
me-empty = The exchange sent no details for your account.

## /prices and /price

prices-title = 📈 Prices in euros
prices-line = { $arrow } { $name } ({ $code }): { $price } ({ $change } in 24 h)
prices-hint = Send /price btc for one rate with its time.
prices-empty = The exchange lists no prices right now.
price-ask = Which currency? Tap one, or send its code or name (e.g. BTC or Bitcoin). (/cancel to stop)
price-rate = { $name } ({ $code }): { $price }
price-change = 24 h: { $arrow } { $change }
price-time = Rate of { $time }
price-unknown = I do not know the currency “{ $input }”. Known currencies: { $codes }.
chart-title = { $name } ({ $code }) · { $range }
chart-range-24h = 24 h
chart-range-7d = 7 days
chart-range-30d = 30 days
chart-button = { $range }
chart-button-current = • { $range } •
chart-since = Data since { $time }
chart-covers = { $unit ->
    [minutes] { $count ->
        [one] 1 minute
       *[other] { $count } minutes
    }
    [hours] { $count ->
        [one] 1 hour
       *[other] { $count } hours
    }
   *[days] { $count ->
        [one] 1 day
       *[other] { $count } days
    }
  }
chart-top-title = Change in % · { $range }
chart-top-caption = 📈 { $codes }: how each price changed in % over { $range }, each line from its own first price. /price with a currency shows its chart in euros.
prices-chart-button = 📈 Chart of the top { $count }
chart-gone = No price history to draw yet.
chart-too-short = 📈 No chart yet: I started keeping prices only moments ago. Tap a span below in a few minutes to draw it.
chart-too-short-tap = Not enough prices kept yet for a chart: try again in a few minutes.

## /limits

limits-title = 📏 Your limits
limits-type-fiat-deposit = 💶 Euro deposits
limits-type-crypto-deposit = 🪙 Crypto deposits
limits-type-fiat-withdrawal = 🏦 Euro withdrawals
limits-type-crypto-withdrawal = 📤 Crypto withdrawals
limits-type-credit-card-buy = 💳 Card purchases
limits-type-other = 📏 Other limit
limits-today = Today: { $used } of { $ceiling }
limits-month = This month: { $used } of { $ceiling }
limits-empty = The exchange reports no limits for your account.

## /fees

fees-usage =
    What would an order cost? For example:
    /fees buy 100 – buying for 100 €
    /fees sell 0.01 btc – selling 0.01 BTC
    /fees send btc – sending BTC
    Or choose below. (/cancel to stop)
fees-button-buy = Buy
fees-button-sell = Sell
fees-button-send = Send
fees-type-unknown = Please choose Buy, Sell or Send (tap a button or type the word).
fees-ask-currency-sell = Which currency would you sell? Tap one or type its code. (/cancel to stop)
fees-ask-currency-send = Which currency would you send? Tap one or type its code. (/cancel to stop)
fees-ask-amount-buy = How many euros would you buy for? Send a number like 100, or an amount in crypto like 0.01 btc. (/cancel to stop)
fees-ask-amount = How much { $code }? Send a number, e.g. { $example }. (/cancel to stop)
fees-unknown-currency = I do not know the currency “{ $input }”. Known: { $codes } and EUR.
fees-send-eur = Euros are not sent but withdrawn to your bank account: see /withdraw. Choose a crypto currency.
fees-buy-title = 🧾 Fee for a buy
fees-sell-title = 🧾 Fee for a sell
fees-amount = Amount: { $amount }
fees-amount-converted = Amount: { $amount } ≈ { $eur }
fees-fee = Fee: { $fee } ({ $percent }% of the amount)
fees-estimate = ℹ️ This is an estimate: the amount was converted at { $rate } per { $code }, the exchange rate of now. The fee is computed on the euro amount and can differ when you place the order.
fees-send-title = 🧾 Fees for sending { $code }
fees-send-fee = Exchange fee: { $fee }
fees-send-miner-fee = Miner fee: { $fee }
fees-send-total = Fees together: { $fee }
fees-send-minimum = Minimum amount to send: { $minimum }
fees-send-amount = Sending { $amount } costs { $fee } in fees.
fees-send-below-minimum = ⚠️ { $amount } is below the minimum of { $minimum }.

## /banks: add and remove

banks-button-add = ➕ Add
banks-button-remove = 🗑 Remove
banks-button-cancel = Cancel
banks-button-confirm-add = ✅ Add this account
banks-button-confirm-remove = 🗑 Yes, remove it
banks-button-keep = Keep it
banks-button-stale = This button is no longer active. Send /banks to start again.
banks-too-many-tries = That did not work out. Nothing was changed; send /banks to start again.
banks-add-ask-name = What is the name of the bank? (For example: Sparkasse Berlin.) Send /cancel to stop.
banks-add-ask-iban = What is the account's IBAN? You can send it with or without spaces.
banks-add-ask-bic = What is the bank's BIC (SWIFT code)? It has 8 or 11 characters, for example COBADEFFXXX.
banks-add-ask-amount =
    How many euros will you transfer from this account to verify it? Send a small amount like 1.00.
    The account is verified when a transfer of exactly this amount arrives from it.
banks-name-too-short = Please send the bank's name (at least two characters, with letters).
banks-name-too-long = That name is too long: at most { $max ->
    [one] 1 character
   *[other] { $max } characters
  }, please.
banks-name-characters = Please send the bank's name without the characters < > { "{" } { "}" }.
banks-iban-empty = Please send the IBAN.
banks-iban-characters = An IBAN has only letters and digits (spaces are fine). Please check it and send it again.
banks-iban-country = “{ $country }” is not the country code of an IBAN country. An IBAN starts with two letters, e.g. DE for Germany. Please check it and send it again.
banks-iban-length = That IBAN has the wrong length for { $country }. A digit may be missing or doubled: please check it and send it again.
banks-iban-format = That IBAN does not have the format used in { $country }. Please check it and send it again.
banks-iban-checksum = That IBAN's check digits do not match: there is probably a typo. Please check it and send it again.
banks-iban-exists = You have already added this IBAN. Send another one, or /cancel.
banks-bic-format = That is not a valid BIC. A BIC has 8 or 11 letters and digits, like COBADEFFXXX. Please send it again.
banks-bic-country = The BIC's country letters (characters 5 and 6) are not a known country. Please check it and send it again.
banks-add-summary =
    🏦 <b>Add this bank account?</b>

    Bank: <b>{ $name }</b>
    IBAN: <code>{ $iban }</code>
    BIC: <code>{ $bic }</code>
    Verification transfer: { $amount }
banks-add-confirm-hint = Tap “Add this account” to add it, or Cancel.
banks-add-refused = The exchange did not add the account: { $message }
    Nothing was changed. Send /banks to try again.
banks-add-created =
    ✅ <b>Bank account added</b>: { $name }, <code>{ $iban }</code>

    Reference number: <code>{ $reference }</code>

    <b>How to verify it:</b> transfer exactly <b>{ $amount }</b> from this account (<code>{ $iban }</code>) to the exchange, with the reference number <code>{ $reference }</code> as the transfer's reference. Once the transfer has arrived, the account is verified and you can withdraw to it with /withdraw. Until then /banks shows it as waiting.
banks-remove-ask =
    Which bank account do you want to remove? Tap it, or send its number. (/cancel to stop)
    { $list }
banks-remove-which = Please tap an account, or send its number (1 to { $count }).
banks-remove-last = This is your only bank account, and the exchange keeps at least one. Add another account first (/banks add), then remove this one.
banks-remove-confirm =
    Remove this bank account?

    { $card }
banks-remove-confirm-hint = Tap “Yes, remove it” or “Keep it”.
banks-remove-kept = Kept. Nothing was changed.
banks-removed = 🗑 Removed: { $bank }
banks-remove-gone = { $bank } is no longer at the exchange (removed from another device?). Nothing else was changed.
banks-remove-refused = The exchange did not remove the account: { $message }

## Market feed and inline mode

market-no-source = I have no connection to the exchange's prices yet. Log in with /login, or try again later.
market-unavailable = The exchange cannot be reached right now, and I have no earlier prices to show. Please try again in a minute.
market-stale = ⚠️ As of { $minutes ->
    [0] less than a minute
    [one] 1 minute
   *[other] { $minutes } minutes
  } ago: the exchange cannot be reached right now.
market-price-usage = Send /price with a currency, for example /price btc. Known currencies: { $codes }.
inline-title = { $name } ({ $code }): { $price }
inline-description = 24 h: { $arrow } { $change }
inline-description-stale = 24 h: { $arrow } { $change } · as of { $minutes } min ago
inline-open-bot = Unknown currency: open the bot
inline-no-source = No prices yet: open the bot
inline-unavailable = Prices unavailable right now: open the bot

## /buy and /sell (trade-*), order progress and notices (order-*)
trade-ask-currency-buy = Which currency do you want to buy? Tap one or type its code. (/cancel to stop)
trade-ask-currency-sell = Which currency do you want to sell? Tap one or type its code. (/cancel to stop)
trade-ask-amount-buy = How many euros of { $code } do you want to buy? Send a number like 100 or 100.50 (the fee comes on top). (/cancel to stop)
trade-ask-amount-sell = How much { $code } do you want to sell? Send a number like 0.01. (/cancel to stop)
trade-amount-again = Send another amount, or /cancel to stop.
trade-unknown-currency = I do not know the currency “{ $input }”. Known: { $codes }.
trade-refused-closed-buy = Buying { $code } is closed at the exchange right now. Try again later, or /cancel.
trade-refused-closed-sell = Selling { $code } is closed at the exchange right now. Try again later, or /cancel.
trade-refused-minimum = That is below the minimum of { $minimum }.
trade-refused-fee = That is too little: the fee of { $fee } would take all of it.
trade-refused-balance-buy = Your euro balance is { $balance }, but this buy needs { $needed } (fee included).
trade-refused-balance-sell = Your balance is { $balance }, but this sell needs { $needed }.
trade-refused-limit = That is more than the exchange lets you buy: { $left } left { $period ->
    [month] this month
   *[other] today
  }. Try a smaller amount.
trade-card-title-buy = 🧾 Buy { $code }: your quote
trade-card-title-sell = 🧾 Sell { $code }: your quote
trade-card-rate = Rate: { $rate } per { $code }
trade-card-fee = Fee: { $fee }
trade-card-pay = You pay: { $amount }
trade-card-get = You get about: { $amount }
trade-card-minimum = Minimum: { $minimum }
trade-card-limit-none = No limit applies to sales.
trade-card-open-buy = ✅ Buying { $code } is open.
trade-card-open-sell = ✅ Selling { $code } is open.
trade-card-expires = This quote is valid until { $time }. After that, Confirm gives you a new quote.
trade-button-confirm = ✅ Confirm
trade-button-change = ✏️ Change amount
trade-button-cancel = ✖️ Cancel
trade-card-placing = ⏳ Confirmed. Placing your order…
trade-card-cancelled = ✖️ Cancelled.
trade-card-changed = ✏️ Replaced: you are changing the amount.
trade-card-expired = ⌛ This quote expired.
trade-card-replaced = ⌛ This quote was replaced by a newer one.
trade-cancelled = Cancelled. Nothing was ordered.
trade-tap-placing = Placing your order…
trade-tap-already = This order was already placed. Nothing was ordered twice.
trade-tap-expired = This quote expired; here is a new one.
trade-tap-replaced = This quote was replaced by a newer one. Use the newest card.
trade-tap-cancelled = This quote was cancelled. Nothing was ordered.
trade-tap-not-yours = This button is not for you.
trade-tap-unknown = This quote is no longer valid. Start again with /buy or /sell.
trade-requoted = Prices move: your quote was more than a minute old, so here is a new one. Nothing was ordered yet.
trade-placed = ✅ Order placed: { $summary }. I will tell you when it settles.
trade-unknown = ⚠️ The exchange did not answer in time, so I do not know yet whether your order ({ $summary }) went through. I will NOT send it again. I will check and tell you.
trade-failed = ❌ The exchange refused the order, so nothing was ordered. Check the amount and your balance, then try again.
trade-failed-login = Your session at the exchange has ended, so nothing was ordered. Log in again, then start over.
order-summary-buy = buy { $code } for { $amount }
order-summary-sell = sell { $amount }
order-summary-send = send { $amount } to { $address }
order-summary-withdraw = withdraw { $amount } to your bank account
order-notice-placed = ✅ Your order ({ $summary }) did reach the exchange. I will tell you when it settles.
order-notice-not-placed = ℹ️ Your order ({ $summary }) is not at the exchange 10 minutes after it was sent: it most likely never arrived, and in that case nothing was charged. Please check /transactions before you place it again.
order-notice-unknown = ⚠️ I cannot tell whether your order ({ $summary }) reached the exchange: it answered about your transactions in a form I cannot read. It may have been carried out and charged, or not. Please look for it in /transactions before you place it again; I will tell you if I find out.
order-notice-settled = 🎉 Your order ({ $summary }) completed.
order-notice-settled-fee = 🎉 Your order ({ $summary }) completed. The exchange took a fee of { $fee }.
order-notice-failed = ❌ The exchange reports your order ({ $summary }) as failed and gives no reason. Please check /balance and /transactions before you try again.

## /send

send-ask-currency = Which currency do you want to send? Tap one or type its code. (/cancel to stop)
send-unknown-currency = I do not know the currency “{ $input }”. You can send: { $codes }.
send-eur = Euros are not sent but withdrawn to your bank account: see /withdraw. Choose a crypto currency.
send-refused-closed = Sending { $code } is paused at the exchange right now. Please try again later.
send-ask-address = Send me the { $code } address to send to. You can paste it{ $example ->
    [none] .
   *[other] , also as a payment link (e.g. { $example }).
  } (/cancel to stop)
send-address-empty = Please send the recipient's address.
send-address-too-long = That is far too long for an address. Please paste only the recipient's { $code } address.
send-address-invalid = That is not a valid { $code } address: a character may be wrong or missing. Please check it and send it again.
send-address-other-currency = That is a { $other } address, not a { $code } address. Coins sent to the wrong network are lost: please send a { $code } address.
send-ask-amount = How much { $code } do you want to send to { $address }? Send a number, e.g. 0.01.
send-ask-amount-again = Please send another amount, or /cancel.
send-refused-minimum = That is below the minimum for a send: at least { $minimum }.
send-refused-balance = Your balance is { $balance }, and this send would take { $total } (fees of { $fees } included). The most you can send is { $most }.
send-refused-limit-day = That is worth { $value }, more than is left of your daily crypto-withdrawal limit: { $left }.
send-refused-limit-month = That is worth { $value }, more than is left of your monthly crypto-withdrawal limit: { $left }.
send-card-title = 📤 <b>Send { $code }</b>
send-card-amount = Amount: <b>{ $amount }</b> (≈ { $value })
send-card-address = To: <code>{ $address }</code>
send-card-fee = Exchange fee: { $fee }
send-card-miner-fee = Miner fee: { $fee }
send-card-total = Taken from your balance: <b>{ $total }</b>
send-card-balance = Balance: { $balance } → { $after }
send-card-minimum = Minimum send: { $minimum }
send-card-limit-day = Daily crypto-withdrawal limit left: { $left }
send-card-limit-month = Monthly crypto-withdrawal limit left: { $left }
send-card-check = ⚠️ Check the address: a send cannot be undone. After Confirm I will ask for your 2FA code.
send-card-expires = This quote is valid until { $time }.
send-button-confirm = ✅ Confirm
send-button-cancel = ✖️ Cancel
send-button-stale = This button is no longer active. Send /send for a new quote.
send-cancelled = Cancelled. Nothing was sent.
send-quote-expired = That quote has expired, so here is a fresh one.
send-replaced = This quote was replaced by a newer one. Nothing was sent.
send-code-ask = Confirmed. Now type the current 6-digit code from your authenticator app (I delete your message at once). Nothing is sent without it; /cancel stops here.
send-code-format = Please type the 6-digit code from your authenticator app (digits only).
send-code-awaited = Already confirmed: now type your 6-digit code.
send-code-wrong = The exchange did not accept that code (wrong or expired). Please type the current code. Tries left: { $left }.
send-code-too-many = The code was refused too often, so I cancelled this send. Nothing was sent. Start again with /send.
send-code-late = That took too long, so I cancelled this send. Nothing was sent. Start again with /send for a fresh quote.
send-sending = Sending the order to the exchange…
send-placed = ✅ The exchange accepted your order: { $amount } to <code>{ $address }</code>. I will tell you when it has gone through.
send-failed = The exchange refused this send, so nothing was sent. Check the address, the amount and your balance, then try again.
    Nothing was sent.
send-login-needed = Your exchange session has ended, so nothing was sent. Log in again, then start over with /send.
send-unknown = ⚠️ The exchange did not answer in time, so I do not know yet whether the send was placed. Do not send it again: I am checking and will tell you what happened.
send-sent-already = This send was already handed to the exchange. Nothing more was done.

# /alert and /alerts: price alerts (src/bot/features/alerts.ts)
alert-usage =
    Set a price alert:
    /alert btc above 60000
    /alert eth below 2000
    /alert btc change 5% – the 24 h change, up or down
    Each alert tells you once when its level is crossed. /alerts lists them.
alert-guide-currency = 🔔 A new price alert. For which currency? Tap it, or type its code.
alert-guide-currency-unknown = I do not know that currency. Tap one of the buttons, or type a code like BTC.
alert-guide-kind = When should I tell you about { $code }?
alert-guide-kind-now = When should I tell you about { $code }? It is at { $price } now.
alert-guide-tap = Please tap one of the buttons (or /cancel to stop).
alert-guide-above = Above which price in EUR? { $code } is at { $price } now. Type it, for example 65000.
alert-guide-below = Below which price in EUR? { $code } is at { $price } now. Type it, for example 55000.
alert-guide-change = By how many percent within 24 hours, up or down? { $code } moved { $change } in the last 24 hours. Type it, for example 5.
alert-guide-button-above = 📈 Above a price
alert-guide-button-below = 📉 Below a price
alert-guide-button-change = ↕️ A 24 h move in %
alert-unknown-currency = I do not know the currency “{ $input }”. Known currencies: { $codes }.
alert-no-market = I cannot reach the market prices right now, so I cannot check that alert. Please try again in a minute.
alert-change-out-of-range = A 24 h change alert needs a level from { $min } % to { $max } %: a price cannot fall by more than 100 %. For example: /alert btc change 5%
alert-limit = You already have { $limit ->
    [one] 1 alert
   *[other] { $limit } alerts
  }, the most one person can have. Remove one in /alerts first.
alert-duplicate = You already have this alert: { $alert }.
alert-added = ✅ Alert set: { $alert }.
alert-now = Now: { $price } ({ $change } in 24 h).
alert-already = That is already the case, so it fires at the next price check.
alert-added-hint = It tells you once; it fires again only after the price has moved back past the level by 1 % (a fifth of the level for change alerts). /alerts lists your alerts.
alert-notifications-off = Note: price alert messages are switched off in /settings, so this one stays silent until you switch them on.
alert-describe-above = { $code } above { $level }
alert-describe-below = { $code } below { $level }
alert-describe-change = { $code } moves { $level } in 24 h
alert-fired-above = 🔔 { $name } ({ $code }) reached { $level } (at or above): { $price } ({ $change } in 24 h).
alert-fired-below = 🔔 { $name } ({ $code }) reached { $level } (at or below): { $price } ({ $change } in 24 h).
alert-fired-change = 🔔 { $name } ({ $code }) moved { $change } in 24 h (your alert: { $level }): { $price }.
alert-fired-hint = You hear from this alert again after the price has moved back and crosses the level again. /alerts to manage.
alert-held-now = ⏱ Held during your quiet hours: it crossed at { $crossed }; now it is { $price }.
alert-remove-button = 🗑 Remove this alert
alert-buy-button = 🛒 Buy { $amount }
alert-sell-button = 💶 Sell { $amount }
alert-sell-ask-button = 💶 Sell { $code }…
alert-another-button = 🔔 Set another alert
alert-tap-again = Your quote is on its way: one card per tap.
alert-another =
    Set another alert for { $code } (now { $price }), for example:
    /alert { $command } above { $above }
    /alert { $command } below { $below }
    /alert { $command } change 5%
alerts-title = 🔔 Your price alerts
alerts-empty = You have no price alerts. Set one, e.g. /alert btc above 60000.
alerts-fired-mark = (fired; waits for the price to move back)
alerts-hint = Tap 🗑 to remove one. You can have up to { $limit }; add more with /alert.
alerts-remove-button = 🗑 { $alert }
alerts-new-button = ➕ New alert
alerts-removed = Alert removed.
alerts-gone = That alert no longer exists.

## /withdraw

withdraw-no-banks = You have no bank account at the exchange yet. Add one with /banks add; once it is verified you can withdraw to it.
withdraw-none-verified =
    None of your bank accounts is verified yet, so you cannot withdraw to it yet:
    { $list }
    An account is verified once the exchange has received its small verification transfer (see /banks).
withdraw-pending-mark = (⏳ not verified yet)
withdraw-ask-bank =
    To which bank account? Tap it, or send its number. (/cancel to stop)
    { $list }
withdraw-which-bank = Please tap a bank account, or send its number (1 to { $count }).
withdraw-bank-pending = That account is not verified yet, so you cannot withdraw to it: the exchange is still waiting for its verification transfer (see /banks). Please choose a verified account.
withdraw-bank-gone = That bank account is no longer at the exchange. Nothing was withdrawn; start again with /withdraw.
withdraw-ask-amount = How many euros do you want to withdraw to { $bank }? Send a number like 100 or 100.50. (/cancel to stop)
withdraw-ask-amount-again = Please send another amount, or /cancel.
withdraw-refused-balance = That is more than your balance of { $balance }.
withdraw-refused-limit-day = That is more than is left of your daily withdrawal limit: { $left }.
withdraw-refused-limit-month = That is more than is left of your monthly withdrawal limit: { $left }.
withdraw-card-title = 🏦 <b>Withdraw euros</b>
withdraw-card-amount = Amount: <b>{ $amount }</b>
withdraw-card-bank = To: { $name } · { $iban }
withdraw-card-reference = Reference number: <code>{ $reference }</code>
withdraw-card-balance = Balance: { $balance } → { $after }
withdraw-card-limit-day = Daily withdrawal limit left: { $left }
withdraw-card-limit-month = Monthly withdrawal limit left: { $left }
withdraw-card-check = After Confirm I will ask for your 2FA code.
withdraw-card-expires = This quote is valid until { $time }.
withdraw-button-confirm = ✅ Confirm
withdraw-button-cancel = ✖️ Cancel
withdraw-button-stale = This button is no longer active. Send /withdraw to start again.
withdraw-cancelled = Cancelled. Nothing was withdrawn.
withdraw-quote-expired = That quote has expired, so here is a fresh one.
withdraw-replaced = This quote was replaced by a newer one. Nothing was withdrawn.
withdraw-code-ask = Confirmed. Now type the current 6-digit code from your authenticator app (I delete your message at once). Nothing is withdrawn without it; /cancel stops here.
withdraw-code-format = Please type the 6-digit code from your authenticator app (digits only).
withdraw-code-awaited = Already confirmed: now type your 6-digit code.
withdraw-code-wrong = The exchange did not accept that code (wrong or expired). Please type the current code. Tries left: { $left }.
withdraw-code-too-many = The code was refused too often, so I cancelled this withdrawal. Nothing was withdrawn. Start again with /withdraw.
withdraw-code-late = That took too long, so I cancelled this withdrawal. Nothing was withdrawn. Start again with /withdraw for a fresh quote.
withdraw-sending = Sending the order to the exchange…
withdraw-placed = ✅ The exchange accepted your withdrawal of { $amount } to { $bank }. I will tell you when it has gone through.
withdraw-failed = The exchange refused this withdrawal, so nothing was paid out. Check the amount and your balance, then try again.
    Nothing was withdrawn.
withdraw-login-needed = Your exchange session has ended, so nothing was withdrawn. Log in again, then start over with /withdraw.
withdraw-unknown = ⚠️ The exchange did not answer in time, so I do not know yet whether the withdrawal was placed. Do not order it again: I am checking and will tell you what happened.
withdraw-sent-already = This withdrawal was already handed to the exchange. Nothing more was done.
trade-tap-expired-again = This quote expired and was quoted again already. Use the newest card.
order-typed-none = There is no quote waiting for your Confirm or Cancel. Start with /buy, /sell, /send or /withdraw.

## Re-login inside a flow

session-expired-in-flow = Your exchange session has expired. Log in again and we carry on where you were.
login-first-then-quote = Log in first; your quote follows right after.
login-expired-ask-password = Send the password of { $email }. I delete the message right away.
login-expired-ask-code = Send the current 6-digit code from your authenticator app to log in again as { $email }.

## Mini App login (the page served at /webapp/login)

webapp-title = Log in to your exchange account
webapp-intro = Your password and code go straight to this bot's server, not into the chat.
webapp-email = E-mail
webapp-password = Password
webapp-code = 6-digit code from your authenticator app
webapp-submit = Log in
webapp-done = ✅ Logged in. You can close this page and go back to the chat.
webapp-not-from-telegram = Open this page with the Log in button in the bot's chat.
webapp-failed = That did not work. Check your connection and try again.
webapp-bad-email-or-password = Please enter the e-mail address and password of your exchange account.
webapp-bad-code-format = The code is the 6 digits your authenticator app shows.
webapp-wrong-code = That code was not accepted. Enter the current code from your authenticator app. ({ $left } tries left)
webapp-wrong-credentials = E-mail or password is wrong. ({ $left } tries left)

## Anti-phishing phrase

phishing-line = 🛡 Your anti-phishing phrase: { $phrase }
settings-phishing-line = 🛡 Anti-phishing phrase: { $phrase }
settings-phishing-none = not set
settings-button-phishing-set = 🛡 Set anti-phishing phrase
settings-button-phishing-change = 🛡 Change phrase
settings-button-phishing-remove = 🛡 Remove phrase
settings-phishing-ask = 🛡 Send the words you want to see on my messages: words only you know, { $min } to { $max } characters (for example: blue tiger 42). I delete your message at once. /cancel to stop.
settings-phishing-saved = 🛡 Saved. I deleted your message; from now on your phrase stands on every message in which I ask for your password or a code, and on every quote card and order message.
settings-phishing-removed = 🛡 Your anti-phishing phrase is removed.
settings-phishing-bad = The phrase needs { $min } to { $max } characters. I deleted your message; send me another one, or /cancel to stop.

## Partner mode: buy, sell and withdraw (orders through the partner API)
partner-card-pay-plus-fee = You pay: { $amount }, plus the exchange's fee (I tell you the fee taken when the order completes)
partner-card-sell = You sell: { $amount }
partner-card-get-minus-fee = You get about: { $amount }, minus the exchange's fee (I tell you the fee taken when the order completes)
partner-card-balance = Your balance: { $balance }
partner-withdraw-card-check = After Confirm I will ask for your PIN.
partner-trade-unknown = ⚠️ The exchange did not answer, even when asked again with the same order key, so I do not know yet whether your order ({ $summary }) went through. The key makes sure it can never be placed twice. I will check and tell you.
partner-order-not-signed-up = You are not signed up yet, so nothing was ordered. Send /start to sign up.
partner-pin-ask = Confirmed. Now type your 6-digit PIN (I delete your message at once). Nothing is withdrawn without it; /cancel stops here.
partner-pin-format = Please type your 6-digit PIN (digits only).
partner-pin-awaited = Already confirmed: now type your 6-digit PIN.
partner-pin-wrong = That PIN is wrong. Tries left before withdrawals are locked for 15 minutes: { $left }.
partner-pin-locked = 🔒 Too many wrong PINs: withdrawals are locked until { $time }. Nothing was withdrawn. Try again after that with /withdraw.
partner-pin-late = That took too long, so I cancelled this withdrawal. Nothing was withdrawn. Start again with /withdraw for a fresh quote.
partner-pin-not-set = You have no PIN yet, so I cancelled this withdrawal. Nothing was withdrawn. Set one with /pin, then withdraw again.
partner-pin-checking = Checking your PIN and sending the order to the exchange…

## Partner mode: /start (sign-up), the KYC gate, /verify, /help

help-text-partner =
    What I can do:
    /start – sign up, or see where your verification stands
    /home – where you stand: balance, today's prices, open orders
    /verify – verify your identity with a share token
    /me, /profile – your profile, and changing it
    /balance – your balances
    /prices – pairs and rates; /price btc for one
    /buy, /sell – trade crypto against euros
    /withdraw – euros to your bank account (with your PIN)
    /deposit – how to deposit euros
    /banks – your bank accounts
    /transactions – your transactions; /tx ID for one
    /limits – your deposit and withdrawal limits
    /recurring – buy a fixed amount on a schedule
    /notifications – notifications, quiet hours, daily digest
    /safety – cooling-off of new bank accounts, your own limits
    /pin – change your PIN
    /freeze – stop every money action at once (no PIN needed)
    /language – change the language
    /cancel – stop what you are doing
command-verify = Verify your identity
command-profile = Change your profile
partner-welcome-back = Welcome back, { $name }!
signup-intro = Welcome, { $name }! 👋 Let's open your account: a few questions, about two minutes. Send /cancel at any time to stop.
signup-ask-email = What is your e-mail address?
signup-bad-email = That does not look like an e-mail address. Please send it like name@example.com.
signup-ask-name = Your first name, as on your ID?
signup-ask-surname = And your surname?
signup-bad-name = Please send the name as on your ID: letters, with spaces, hyphens, apostrophes or dots between them, at most 64 characters.
signup-ask-phone = Your phone number: tap the button below to share it, or type it with the country code (like +49 151 23456789).
signup-share-phone = 📱 Share my phone number
signup-phone-hint = Please tap "Share my phone number" below, or type your number with the country code.
signup-contact-not-yours = That is someone else's contact. Please share your own number with the button below, or type it.
signup-bad-phone = That is not a phone number I can use. Please type it with the country code, like +49 151 23456789.
signup-phone-ok = Phone number: { $phone }.
signup-ask-consent = Please read our terms (version { $version }): tap "Read the terms" or open { $url }. Do you agree to them?
signup-read-terms = 📄 Read the terms
signup-consent-agree = ✅ I agree
signup-consent-decline = ❌ I do not agree
signup-consent-tap = Please tap "I agree" or "I do not agree" above.
signup-consent-declined = Without agreeing to the terms I cannot open an account for you. Nothing was stored. Send /start if you change your mind.
signup-ask-pin = Now choose a 6-digit PIN. You will need it to withdraw money. I delete your message at once.
signup-ask-pin-again = Please type the same PIN again.
signup-bad-pin = A PIN is exactly 6 digits. Please try again.
signup-weak-pin = That PIN is too easy to guess: { $reason ->
    [same] all its digits are the same.
    [run] its digits count up or down in a row.
   *[common] it is one of the PINs people choose most.
  } Please choose another one.
signup-pin-mismatch = The two PINs differ. Let's start the PIN again.
signup-creating = Opening your account…
signup-done = Your account for { $email } is open. ✅
signup-email-taken = The exchange already has an account for { $email }. Send /start to sign up with another e-mail address, or contact { $support } if the address is yours and you cannot reach that account.
signup-refused = The exchange did not open the account: { $reason } Send /start to try again, or contact { $support }.
signup-unavailable = The exchange could not be reached, so no account was opened. Please send /start again in a few minutes.
signup-required = You do not have an account with us yet. Send /start to sign up.
kyc-passed = Your identity is verified: all commands are open to you. Send /help to see them.
kyc-pending = Your identity is being checked. I will write to you as soon as the check is done.
kyc-not-started = Your identity is not verified yet. Verify it with our identity-verification partner, then send /verify with the share token it gives you.
kyc-refused = Your identity check was not successful, so I cannot serve your account. Please contact { $support }.
kyc-edd-required = Your identity is verified, but the exchange needs more documents from you (enhanced due diligence) before it can serve you. Please contact { $support }.
kyc-unknown = Your verification is in a state I cannot read yet, so I cannot serve your account. Please contact { $support }.
kyc-changed = Your verification has an update.
verify-ask-token = Paste the share token from your identity-verification provider. I delete your message at once. (/cancel to stop)
verify-bad-token = That does not look like a share token. Copy the whole token from your verification provider and send /verify again.
verify-imported = Your verification data was handed over to the exchange.
verify-refused = The exchange did not accept the token: { $reason } Check the token and send /verify again, or contact { $support }.
verify-group-deleted = I deleted your message: a share token belongs only in our private chat, where nobody else can read it. Open it below and send /verify there. If the group may have seen the token, get a new one from your verification provider first.
verify-group-not-deleted = ⚠️ I may not delete messages in this group, so your share token is still there for everyone to read. Treat it as seen: get a new token from your verification provider and send it to me in our private chat with /verify. I did not use the one above.
verify-unavailable = The exchange could not be reached, so nothing was imported. Please send /verify again in a few minutes.
## Partner mode: fields the exchange sends in a shape it does not specify (ui/fields.ts)

fields-label-amount = Amount
fields-label-balance = Balance
fields-label-currency = Currency
fields-label-iban = IBAN
fields-label-bic = BIC
fields-label-beneficiary = Beneficiary
fields-label-reference = Reference
fields-label-bank = Bank
fields-label-state = State
fields-label-status = Status
fields-label-created = Created
fields-label-updated = Updated
fields-label-price = Price
fields-label-pair = Pair
fields-label-fee = Fee
fields-label-name = Name
fields-label-type = Type
fields-label-available = Available
fields-label-reserved = Reserved
fields-label-total = Total
fields-label-eur-value = Value in EUR
fields-label-value = Value
fields-label-fiat-amount = Amount in EUR
fields-label-code = Code
fields-label-base-currency = Currency
fields-label-quote-currency = Priced in
fields-label-date = Date
fields-label-time = Time
fields-label-id = Number
fields-label-user-id = Customer number
fields-label-crypto-amount = Crypto amount
fields-label-fee-currency = Fee currency
fields-label-miner-fee = Network fee
fields-label-address = Address
fields-label-note = Note
fields-label-daily = Per day
fields-label-monthly = Per month
fields-label-day-used = Used today
fields-label-month-used = Used this month
fields-label-decimals = Decimals
fields-label-email = E-mail
fields-label-first-name = First name
fields-label-surname = Surname
fields-label-phone = Phone
fields-label-birth-date = Date of birth
fields-label-building = Building number
fields-label-city = City
fields-label-postal-code = Postal code
fields-label-country = Country
fields-label-kyc = Identity check
fields-label-edd = Enhanced due diligence
fields-label-limit = Limit
fields-label-spent = Used
fields-label-tier = Tier
fields-label-buy = Buy
fields-label-sell = Sell
fields-label-minimum = Minimum
fields-label-verified = Verified
fields-kind-fiat = money (fiat)
fields-kind-crypto = crypto
fields-kind-other = other
status-active = active
status-inactive = inactive
status-blocked = blocked
status-closed = closed
status-verified = verified
status-unverified = not verified
status-passed = passed
status-pending = in progress
status-failed = failed
status-declined = declined
status-not-started = not started yet
status-not-required = not needed
status-required = needed
status-confirmed = confirmed
status-done = done
status-cancelled = cancelled
status-expired = expired
status-paused = paused
status-ended = ended
status-listed = listed
status-basic = basic
status-unknown = unknown
fields-yes = yes
fields-no = no
fields-more-details = … and { $count ->
    [one] one more detail
   *[other] { $count } more details
  }
fields-more-items = … and { $count ->
    [one] one more
   *[other] { $count } more
  }
fields-page = Page { $page }
fields-no-more = There is nothing more.
fields-button-prev = ‹ Newer
fields-button-next = Older ›

## Partner mode: customer commands

partner-not-linked = You have no account with us yet. Send /start to sign up.
partner-balance-title = 💼 <b>Your balances</b>
partner-balance-empty = The exchange shows no balance for you yet.
partner-limits-title = 📏 <b>Your limits</b>
partner-limits-none = The exchange shows no limit here.
limits-day-ceiling = Per day: up to { $ceiling }
limits-month-ceiling = Per month: up to { $ceiling }
partner-prices-none = The exchange shows no rates right now.
partner-prices-pairs = Also offered, without a rate right now: { $pairs }
partner-prices-time = Rates of { $time }
partner-price-line = { $code }: { $price }
partner-price-title = 📈 <b>{ $code }</b>
partner-price-usage = Which currency? For example: /price btc
partner-price-unknown = The exchange lists no rate for { $code }. Pairs: { $pairs }
partner-deposit-title = 🏦 <b>How to deposit euros</b>
    Make a bank transfer with exactly these details (tap a value to copy it):
partner-deposit-title-other = 🏦 <b>How to deposit</b>
    Make a bank transfer with exactly these details (tap a value to copy it):
partner-deposit-reference-note = Put the reference in your transfer's remittance field (purpose of payment) exactly as shown, so the money reaches your account.
partner-deposit-none = The exchange gives no deposit instructions right now. Please try again later.
partner-deposit-girocode = Scan this code in your banking app to fill in the transfer.
partner-transactions-title = 📜 <b>Your transactions</b>
partner-transactions-none = You have no transactions yet.
partner-transactions-hint = Send /tx and a number for one transaction, e.g. /tx { $id } for your newest one.
partner-tx-bad-id = Which transaction? Send /tx and its number, as /transactions lists it.
partner-tx-not-found = The exchange knows no transaction { $id } of yours.
partner-tx-title = 📄 <b>Transaction { $id }</b>
partner-tx-empty = The exchange sends no details for it.
partner-me-title = 👤 <b>Your profile</b>
partner-me-empty = The exchange sends no profile details.
partner-me-hint = To change your name, phone or address, send /profile.
partner-profile-choose = What would you like to change?
partner-profile-button-name = First name
partner-profile-button-surname = Surname
partner-profile-button-phone = Phone
partner-profile-button-address = Address
partner-profile-ask-name = Your new first name? (/cancel to stop)
partner-profile-ask-surname = Your new surname? (/cancel to stop)
partner-profile-name-invalid = Please send the name as on your ID: letters, with spaces, hyphens, apostrophes or dots between them, at most 64 characters.
partner-profile-ask-phone = Your new phone number, with the country code, e.g. +49 151 23456789? (/cancel to stop)
partner-profile-ask-street = Your street?
partner-profile-ask-building = The building number?
partner-profile-ask-postal = The postal code?
partner-profile-ask-city = The city?
partner-profile-ask-country = The country of your address, as its three-letter code (e.g. DEU, AUT, FRA)? (/cancel to stop)
partner-profile-empty = Please send some letters or digits.
partner-profile-characters = Please send it without the characters < > { "{" } { "}" }.
partner-profile-too-long = That is too long. Please send a shorter one.
partner-profile-phone-invalid = That is not a phone number I can use. Send it with + and the country code, e.g. +49 151 23456789.
partner-profile-postal-invalid = That is not a postal code for { $country }. Please send it again, written like { $example }.
partner-profile-country-invalid = Please send the three-letter country code, e.g. DEU for Germany.
partner-profile-too-many-tries = That did not work out. Nothing was changed; send /profile to start again.
partner-profile-refused = The exchange did not change your profile: { $message }
partner-profile-saved = ✅ <b>Saved.</b> Your profile now:
partner-banks-view-title = 🏦 <b>Bank account</b>
partner-banks-view-empty = The exchange sends no details for this account.
partner-banks-gone = That bank account is no longer there (removed from another device?). Send /banks to see the list.
partner-banks-removed = 🗑 Removed: { $bank }
partner-banks-add-intro = Let's add your bank account: its name, IBAN and BIC. If adding it here does not work, contact { $contact }.
partner-banks-add-summary =
    🏦 <b>Add this bank account?</b>

    Bank: <b>{ $name }</b>
    IBAN: <code>{ $iban }</code>
    BIC: <code>{ $bic }</code>
partner-banks-add-gone = The exchange no longer lets us add bank accounts this way. Please contact { $contact }.
partner-banks-added = ✅ <b>Added</b>: { $name }, { $iban }
partner-banks-added-details =
    Reference number: <code>{ $reference }</code>
    State: { $state }
partner-banks-added-unlisted = ✅ <b>Added</b>: { $name }, { $iban }. The exchange does not list it yet; /banks shows it and its state once it does.

## Partner mode: the operator desk (OPERATOR_IDS only)

operator-master-title = 🏛 Master balances
operator-master-line = • { $amount }
operator-master-unavailable = • { $currency }: cannot be read right now
operator-master-usage = Send /master, /master eur, or /master alert eur 1000.
operator-master-unknown = The exchange has no master balance in { $currency }.
operator-alert-title = 🔔 Low-balance alerts:
operator-alert-line = • below { $amount } ({ $state })
operator-alert-armed = watching
operator-alert-fired = fired, waits until the balance is back above
operator-alert-none = No low-balance alert is set. Example: /master alert eur 1000
operator-alert-usage = Send /master alert, a currency and an amount, e.g. /master alert eur 1000 (or /master alert eur off).
operator-alert-set = 🔔 Set: the operators are told when the master balance falls below { $amount }. It is { $balance } now.
operator-alert-removed = 🔕 The low-balance alert for { $currency } is removed.
operator-alert-not-set = There is no low-balance alert for { $currency }.
operator-alert-notice = ⚠️ The master balance is { $balance }, below the alert threshold of { $threshold }.
operator-user-usage = Send /user and a partner user id or e-mail, e.g. /user 42.
operator-user-not-found = No partner user { $user } found.
operator-user-title = 👤 <b>Partner user { $id }</b> (Telegram: { $telegram })
operator-alltx-title = 📜 <b>Every user's transactions</b>
operator-alltx-none = There are no transactions yet.
operator-pairs-title = 🔀 <b>Pairs</b>
operator-currencies-title = 💱 <b>Currencies</b>
operator-list-empty = The exchange lists nothing here.

## Time zone (asked once, for quiet hours, the digest and recurring plans)
time-zone-ask = 🕰 Which time zone are you in? Send a city (e.g. <i>Berlin</i>, <i>New York</i>) or your UTC offset (e.g. <i>+2</i>, <i>UTC-5</i>).
time-zone-unknown = I don't know that time zone. Send a city such as <i>Lisbon</i> or <i>Munich</i>, or an offset such as <i>+1</i> or <i>UTC-3:30</i>. (/cancel to stop)
time-zone-saved = ✅ Time zone: { $zone } ({ $offset }). Your time now: { $time }.

## Notifications: modes, quiet hours, the daily digest
notify-menu-title = 🔔 <b>Notifications</b>
notify-menu-digest-hour = ☀️ Digest at: { $time }
notify-menu-quiet = 🌙 Quiet hours: { $hours }
notify-menu-zone = 🌍 Time zone: { $zone } ({ $offset }, now { $time })
notify-menu-zone-none = 🌍 Time zone: not set yet, so the hours here are UTC. Set yours with “🌍 Change time zone” below or /notifications zone Berlin (I also ask for it when you pick quiet hours or a digest hour).
notify-menu-explained = Silent means the message arrives without a sound. During quiet hours price alerts and the digest wait and come afterwards in one message; order outcomes and security notices always come at once.
notify-button-quiet-off = 🌙 No quiet hours
notify-button-zone = 🌍 Change time zone
notify-button-quiet-other = 🌙 Other hours…
notify-quiet-ask-from = 🌙 From what hour should I keep quiet (your time, { $zone })? Tap one, or type a whole hour from 0 to 23.
notify-quiet-ask-to = 🌙 Quiet from { $from }. Until what hour (your time, { $zone })?
notify-quiet-hour-again = Please type a whole hour from 0 to 23 (your time, { $zone }), for example 22 or 7.
notify-quiet-same-hour = The end must be another hour than the start (your time, { $zone }).
notify-usage = I did not understand that. Examples: /notifications quiet 22 7, /notifications quiet off, /notifications zone Berlin.
notify-held-header = 🌙 While your quiet hours ran ({ $count ->
    [one] one message
   *[other] { $count } messages
  }):
digest-title = ☀️ Your daily digest
digest-portfolio = 💼 Portfolio: { $value }
digest-portfolio-change = 💼 Portfolio: { $value } ({ $difference }, { $change } since yesterday's digest)
digest-prices = 📈 Prices you watch (24 h):
digest-fired = 🔔 Alerts that fired: { $count }
digest-prices-unavailable = 📈 Prices cannot be read right now; /prices shows them when the exchange answers again.
digest-settled = ✅ Orders that settled: { $count }
digest-hint = Change the hour or turn the digest off: /notifications.

## Recurring buys (/recurring)
recurring-off = Recurring buys are switched off on this bot.
recurring-empty =
    🔁 You have no recurring buys yet (up to { $max }). Start one like this:
    /recurring btc 50 daily 9
    /recurring eth 25 weekly monday 18
    /recurring btc 100 monthly last 9 until { $date }
    /recurring btc 100 monthly 15 8 runs 12
recurring-list-title = 🔁 Your recurring buys ({ $count } of { $max }). Add one with /recurring btc 50 daily 9.
recurring-bad-usage =
    Tell me the currency, the amount in EUR, the schedule and the hour, for example:
    /recurring btc 50 daily 9
    /recurring eth 25 weekly monday 18
    /recurring btc 100 monthly 15 9 (a day from 1 to 28, or last)
    Optionally an end: … runs 12, or … until { $date }.
recurring-bad-amount = That amount is not one I can read: write it like 50 or 12.50 (EUR).
recurring-bad-schedule = Say how often: daily, weekly (with a weekday) or monthly (with a day).
recurring-bad-weekday = Which weekday? For example monday or fri.
recurring-bad-day = Which day of the month? A day from 1 to 28, or last.
recurring-bad-hour = At what hour? A whole hour from 0 to 23, for example 9 or 18.
recurring-bad-end = The end reads "runs 12" or "until { $date }".
recurring-bad-currency = { $code } cannot be bought for EUR here. /prices lists what can.
recurring-new-button = ➕ New plan
recurring-guide-currency = 🔁 A new recurring buy. Which currency do you want to buy? Tap it, or type its code.
recurring-guide-currency-unknown = I do not know that currency. Tap one of the buttons, or type a code like BTC.
recurring-guide-amount = How many euros of { $code } each time? Type the amount, for example 50.
recurring-guide-amount-minimum = How many euros of { $code } each time? At least { $minimum }. Type the amount, for example 50.
recurring-guide-below-minimum = That is below the exchange's minimum of { $minimum } per buy. Please type a larger amount.
recurring-guide-every = How often?
recurring-guide-tap = Please tap one of the buttons (or /cancel to stop).
recurring-guide-weekday = On which day of the week?
recurring-guide-day = On which day of the month? Tap one, or type a day from 1 to { $last }.
recurring-guide-day-again = Please type a day from 1 to { $last }, or tap “Last day”.
recurring-guide-hour = At what hour (your time, { $zone })? Tap one, or type a whole hour from 0 to 23.
recurring-guide-hour-again = Please tap an hour, or type a whole hour from 0 to 23 (your time, { $zone }).
recurring-guide-end = Should the plan end by itself?
recurring-guide-runs = After how many runs should it end? Type a number, for example 12.
recurring-guide-runs-again = Please type a whole number from 1 to 999.
recurring-guide-until = Until which date? Type it like { $date }.
recurring-guide-until-again = I cannot read that date. Please type it like { $date }.
recurring-guide-until-past = That date is today or has passed. Please type a later date.
recurring-guide-button-daily = Every day
recurring-guide-button-weekly = Every week
recurring-guide-button-monthly = Every month
recurring-guide-button-last-day = Last day
recurring-guide-button-no-end = No end
recurring-guide-button-runs = After a number of runs
recurring-guide-button-until = Until a date
recurring-below-minimum = The smallest buy of { $code } is { $minimum }, so a plan needs at least that much per run. Send /recurring again with a larger amount.
recurring-end-past = { $date } has already passed. Send /recurring again with a later end date, or without one.
recurring-end-before-first = The plan would end on { $date }, before its first run ({ $first }). Send /recurring again with a later end date, or without one.
schedule-daily = every day at { $time }
schedule-weekly = every { $weekday } at { $time }
schedule-monthly = on day { $day } of every month at { $time }
schedule-monthly-last = on the last day of every month at { $time }
recurring-plan-title = { $amount } of { $code } { $schedule }
recurring-end-runs = Ends after { $runs } runs.
recurring-end-until = Ends on { $date }.
recurring-card =
    🔁 New recurring buy: { $title }
    Time zone: { $zone }
    First run: { $first }
recurring-card-spread = Runs go out within { $minutes } minutes of the hour, each plan at its own minute.
recurring-card-partner = At each run I buy from your EUR balance with no further question and tell you what happened. You can pause, skip or stop it in /recurring.
recurring-card-account = At each run I remind you with a quote button; nothing is bought without your Confirm on that card.
recurring-confirm-button = ✅ Confirm
recurring-cancel-button = ✖️ Cancel
recurring-card-cancelled = Cancelled: no plan was made.
recurring-card-gone = This card is no longer valid. Start again with /recurring.
recurring-not-yours = This is not your card.
recurring-already = This plan exists already: /recurring lists it.
recurring-limit = You have { $max } recurring buys already, the most allowed. Stop one in /recurring first.
recurring-created = ✅ Recurring buy set up: { $title }. /recurring lists it.
recurring-next = Next run: { $when }
recurring-skip-marked = ⏭ The next run will be skipped.
recurring-state = { $state ->
        [paused] ⏸ Paused
        [ended] Ended
       *[other] Stopped
    }
recurring-last = Last run ({ $date }): { $outcome ->
        [bought] bought
        [skipped] skipped
        [failed] failed
        [unknown] outcome open
        [missed] missed (bot offline)
        [skipped-once] skipped once
        [reminded] reminder sent
        [confirmed] confirmed
        [not-confirmed] not confirmed
       *[other] running
    }
recurring-pause-button = ⏸ Pause
recurring-resume-button = ▶️ Resume
recurring-skip-button = ⏭ Skip next
recurring-unskip-button = ↩️ Don't skip
recurring-stop-button = 🗑 Stop
recurring-paused = Paused: no runs until you resume it.
recurring-resumed = Resumed from its next date.
recurring-already-paused = This plan is paused already.
recurring-already-running = This plan is running already.
recurring-skipped-next = The next run will be skipped.
recurring-unskipped = The next run will happen.
recurring-stopped = Stopped for good.
recurring-stop-ask = Stop this plan for good? It runs no more, and a stopped plan cannot be resumed.
recurring-stop-yes-button = 🗑 Yes, stop it
recurring-stop-keep-button = ↩️ Keep it
recurring-not-live = { $state ->
        [ended] This plan has ended, so nothing changed. /recurring sets up a new one.
       *[other] This plan is stopped, so nothing changed. /recurring sets up a new one.
    }
run-next = Next run: { $when }.
run-no-next = The plan has ended.
run-bought = 🔁 { $plan }: bought { $get } for { $pay } at { $rate } per { $code }.
run-skipped = 🔁 { $plan }: the run of { $date } was skipped, nothing was bought.
run-why-kyc = Your verification is not passed (status: { $status }). /verify shows what to do.
run-why-no-account = You have no account with us yet: /start sets one up.
run-why-balance = Your EUR balance is { $balance } and the run needs { $needed }. Top it up with /deposit before the next run.
run-why-minimum = { $amount } is below the exchange's minimum of { $minimum }. Stop this plan and set one with a larger amount in /recurring.
run-why-closed = Buying { $code } is paused at the exchange right now. The plan tries again at its next run.
run-why-rule = { $rule }
run-failed = 🔁 { $plan }: the exchange refused the order of { $date }, nothing was bought. The plan tries again at its next run; /recurring pauses or stops it.
run-missed = 🔁 { $plan }: { $count } run(s) missed while the bot was offline ({ $dates }). Nothing was bought for them; missed runs are never bought late in a burst.
run-reminder =
    🔁 Time for your recurring buy: { $plan }.
    Tap below for a quote of { $amount } of { $code }, then Confirm on the card. Nothing is bought without your Confirm. This reminder stands until { $until }.
run-reminder-button = 🛒 Buy { $amount } of { $code }
run-not-confirmed = 🔁 { $plan }: the run of { $date } was not confirmed, so nothing was bought.
command-recurring = Recurring buys
operator-plans-title = 🔁 Recurring plans: { $active } active, { $paused } paused, { $ended } ended or stopped.
operator-plans-runs-title = Runs of the last 24 h:
operator-plans-no-runs = none
operator-plans-outcome = { $outcome ->
        [bought] bought
        [skipped] skipped
        [failed] failed
        [unknown] outcome open
        [missed] missed (bot offline)
        [skipped-once] skipped once
        [reminded] reminder sent
        [confirmed] confirmed
        [not-confirmed] not confirmed
       *[other] running
    }: { $count }
operator-plans-failed-title = Failed or open:
operator-plans-run = { $date } · plan { $plan } · Telegram { $user } · { $outcome ->
        [bought] bought
        [skipped] skipped
        [failed] failed
        [unknown] outcome open
        [missed] missed (bot offline)
        [skipped-once] skipped once
        [reminded] reminder sent
        [confirmed] confirmed
        [not-confirmed] not confirmed
       *[other] running
    } · { $reason }
operator-plans-reason = { $reason ->
        [no-partner] partner mode not configured
        [no-account] no exchange account linked
        [kyc] identity check not passed
        [closed] currency closed
        [minimum] below the minimum
        [fee] fee higher than the amount
        [balance] balance too low
        [limit] exchange limit reached
        [frozen] money actions frozen
        [own-limit] the user's own daily limit
        [session-expired] session expired
       *[exchange] refused by the exchange (its words are in the log)
    }
operator-plans-user-title = 🔁 Plans of partner user { $id } (Telegram { $telegram })
operator-plans-user-none = No plans.

## The safety net: saved addresses, the allowlist and its cooling-off, own daily caps (/addresses, /safety)
safety-refused-unsaved = 🛡 Your allowlist is on: money goes only to saved { $code } addresses once their cooling-off is over. Save this address with /addresses add, or turn the allowlist off in /safety.
safety-refused-address-cooling = 🛡 This saved address is still in its cooling-off: you can send to it from { $time }. I will tell you when it is ready.
safety-refused-bank-cooling = 🛡 This bank account was added recently and is still in its cooling-off: you can withdraw to it from { $time }. I will tell you when it is ready.
safety-refused-own-limit = 🛡 That is over the daily limit you set yourself ({ $cap } in 24 hours). Left now: { $left }. Send a smaller amount, or change the limit in /safety (a higher limit holds 24 hours after you set it).
send-ask-address-saved = Where should the { $code } go? Tap a saved address, or paste another { $code } address. (/cancel to stop)
send-address-not-saved = This { $code } address is not saved yet. With your allowlist on, money goes only to saved addresses once their cooling-off is over. Save it now? (Or paste another address; /cancel to stop.)
send-address-not-saved-off = This { $code } address is not saved. Save it for next time (it can receive money once its cooling-off is over), or send to it once?
send-button-send-once = ➡️ Send without saving
send-button-save-address = 💾 Save this address
addresses-ask-currency = Which currency is the address for? Tap one or type its code. (/cancel to stop)
addresses-ask-address = Send me the { $code } address to save. You can paste it, also as a payment link (e.g. bitcoin:…). (/cancel to stop)
addresses-ask-label = Give this { $code } address a name you will recognise (up to { $max } characters), e.g. “My hardware wallet”.
addresses-bad-label = Please send a name of 1 to { $max } characters, without < or >.
addresses-not-saved = Nothing was saved.
addresses-full = You have the most saved addresses I keep. Remove one in /addresses first. Nothing was saved.
addresses-saved = ✅ Saved “{ $label }” ({ $code }). For your safety it can receive money from <b>{ $time }</b>; I will tell you then.
addresses-relabelled = ✅ This { $code } address was already saved; it is now called “{ $label }”. It can receive money from { $time }.
addresses-button-stale = This button is no longer active. Send /addresses to start again.
addresses-button-add = ➕ Add an address
addresses-title = 📒 <b>Your saved addresses</b>
addresses-none = None yet. Add one with the button below, or save one while you /send.
addresses-entry = • <b>{ $label }</b> · { $code }
    <code>{ $address }</code> ✅ ready
addresses-entry-cooling = • <b>{ $label }</b> · { $code }
    <code>{ $address }</code> ⏳ ready from { $time }
addresses-button-remove = 🗑 { $label } · { $code }
addresses-allowlist-on = 🛡 Allowlist on: /send goes only to these addresses once they are ready. Settings: /safety
addresses-allowlist-off = Allowlist off: /send goes to any address. Turn it on in /safety.
addresses-removed = Address removed.
addresses-gone = That address was already removed.
addresses-usable-now = ✅ Your saved { $code } address “{ $label }” is ready: you can send to it now.
banks-usable-now = ✅ Your bank account { $iban } is ready: you can withdraw to it now.
banks-cooling = 🛡 For your safety, withdrawals to this account are possible from { $time } (its cooling-off). I will tell you then.
safety-code-why = 🔐 This change protects your money, so I need to know it is really you: I log you in once more, and your 2FA code proves it.
safety-pin-ask = 🔐 This change protects your money: type your 6-digit PIN (I delete your message at once). /cancel stops here.
safety-pin-format = The PIN is 6 digits. Please type it again.
safety-pin-locked = 🔒 Too many wrong PINs: locked until { $time }. Nothing was changed.
safety-pin-not-set = You have no PIN yet, so nothing was changed. Contact support to set one.
safety-title = 🛡 <b>Safety</b>
safety-allowlist-on = Allowlist: <b>on</b>. Money leaves only to saved addresses (/addresses) and to bank accounts once their cooling-off is over.
safety-allowlist-off = Allowlist: <b>off</b>. Sends go to any address; bank accounts added here still wait out their cooling-off only while it is on.
safety-allowlist-off-at = ⏳ It turns off at { $time } (turn it on again to stop that).
safety-cooling-line = Cooling-off of new addresses and bank accounts: <b>{ $hours } h</b>
safety-cooling-shorter-at = ⏳ It becomes { $hours } h at { $time }.
safety-caps-title = Your own daily limits (last 24 hours):
safety-cap-send = Send { $code }
safety-cap-withdraw = Withdraw
safety-cap-buy = Buy
safety-cap-sell = Sell
safety-cap-none = none
safety-cap-raise-pending = (⏳ { $amount } from { $time })
safety-hint = Set a limit: /safety cap withdraw { $large }, /safety cap send btc { $small }, /safety cap buy off. Cooling-off: /safety cooling 12. A lower limit or a longer cooling-off holds at once; anything looser waits, and needs you to confirm it.
safety-button-allowlist-off = Turn the allowlist off
safety-button-allowlist-on = Turn the allowlist on
safety-button-hours = { $hours } h
safety-button-cap = 🔒 Set a daily limit…
safety-guide-which = 🔒 Which daily limit do you want to set? It counts the last 24 hours.
safety-guide-button-send = Send crypto
safety-guide-tap = Please tap one of the buttons (or /cancel to stop).
safety-guide-code = Sends of which crypto? Type its code, for example BTC.
safety-guide-code-again = Please type a currency code like BTC or ETH.
safety-guide-amount = { $cap }: how much at most in 24 hours, in { $unit }? Type the amount, or tap “No limit”. A lower limit holds at once; a higher one or none 24 hours later.
safety-guide-amount-again = Please type an amount in { $unit }, for example 500, or tap “No limit”.
safety-guide-button-off = No limit
safety-not-changed = Nothing was changed.
safety-allowlist-off-later = ✅ Confirmed. Your allowlist turns off at { $time }, after your current cooling-off. Until then it stays on; turn it on again to stop this.
safety-cooling-shorter-later = ✅ Confirmed. Your cooling-off becomes { $hours } h at { $time }, after the current one.
safety-allowlist-off-pending = Your allowlist is already set to turn off; see the time below.
safety-allowlist-already-off = Your allowlist is already off.
safety-allowlist-on-done = ✅ Allowlist on: money leaves only to saved addresses once their cooling-off is over.
safety-cooling-range = The cooling-off can be { $min } to { $max } hours.
safety-cooling-done = ✅ Cooling-off: { $hours } h for addresses and bank accounts you add from now on.
safety-cap-later = ✅ Noted. A higher limit (or none) holds from { $time }, 24 hours from now; until then the old one counts.
safety-cap-done = ✅ Limit set. It holds now.
safety-usage = I did not understand that. Examples: /safety allowlist on, /safety cooling 24, /safety cap withdraw { $large }, /safety cap send btc { $small }, /safety cap sell off.
safety-allowlist-on-partner = Allowlist: <b>on</b>. Withdrawals go only to bank accounts whose cooling-off is over (accounts you add with /banks wait it out).
safety-allowlist-off-partner = Allowlist: <b>off</b>. Withdrawals go to any of your verified bank accounts, also ones added a moment ago.
safety-allowlist-on-done-partner = ✅ Allowlist on: withdrawals go only to bank accounts whose cooling-off is over.
safety-hint-partner = Set a limit: /safety cap withdraw { $large }, /safety cap buy 200, /safety cap sell off. Cooling-off: /safety cooling 12. A lower limit or a longer cooling-off holds at once; anything looser waits, and needs your PIN.
settings-button-safety = 🛡 Safety and limits
command-addresses = Saved addresses
command-safety = Allowlist and your own limits

## Security notices (always sent, never silent), Freeze, /unfreeze, /pin, the operator desk's freeze
security-freeze-button = 🧊 Freeze
security-freeze-hint = Not you? Tap Freeze: every money action stops at once, no code needed.
security-login = 🔐 New login to your exchange account { $via ->
    [webapp] through the Mini App
   *[other] in this chat
  } on { $time }.
security-address-saved = 🔐 New { $currency } address saved: { $label } ({ $address }). Sends to it are possible from { $time }.
security-bank-added = 🔐 Bank account added: { $iban }. Withdrawals to it are possible from { $time }.
security-allowlist-on = 🔐 The address allowlist is on: sends go only to saved addresses past their cooling-off.
security-allowlist-off = 🔐 The address allowlist was turned off. That takes effect on { $time }; until then sends still go only to saved addresses.
security-cooling-off = 🔐 The cooling-off of new addresses changes to { $hours } h on { $time }.
security-phrase-changed = 🔐 Your anti-phishing phrase was changed or removed.
security-remember-on = 🔐 "Remember password" was turned on: your next /login keeps your password for quick re-logins.
security-remember-off = 🔐 "Remember password" was turned off: a remembered password is forgotten.
security-limit-name = { $limit ->
    [send] sending { $code }
    [withdraw] withdrawals
    [buy] buying
    [sell] selling
   *[other] moving money
  }
security-limit-set = 🔐 Your own daily limit for { $limit } is { $amount } from { $time }.
security-limit-removed = 🔐 Your own daily limit for { $limit } is removed from { $time }.
security-large-outflow = 🔐 { $kind ->
    [send] A send
   *[other] A withdrawal
  } of { $amount } went out: more than half of your own daily limit.
security-pin-changed = 🔐 Your PIN was changed.
security-pin-reset = 🔐 Support reset your PIN. Withdrawals need a new one: set it with /pin.
security-frozen-account = 🧊 { $by ->
    [operator] Support froze
   *[other] You froze
  } the money actions of your account. What I did: every buy, sell, send and withdrawal is refused, quote cards still open are cancelled, you are logged out of the exchange here and a remembered password is forgotten.
security-frozen-partner = 🧊 { $by ->
    [operator] Support froze
   *[other] You froze
  } the money actions of your account. What I did: every buy, sell and withdrawal is refused and quote cards still open are cancelled.
freeze-how-account = To unfreeze: /unfreeze. You log in again (e-mail, password, 2FA code), and money actions open { $delay } later, announced here with another Freeze button.
freeze-how-partner = To unfreeze, contact support: { $support }.
security-unfreeze-scheduled = 🔓 Unfreeze asked for: money actions open again on { $time }. If that was not you, tap Freeze now and they stay frozen.
security-unfrozen = 🔓 Your money actions are open again: buying, selling, sending and withdrawing work as before. If you did not ask for this, tap Freeze.
security-delay-hours = { $hours ->
    [one] 1 hour
   *[other] { $hours } hours
  }
security-delay-minutes = { $minutes ->
    [one] 1 minute
   *[other] { $minutes } minutes
  }
freeze-refused = 🧊 The money actions of your account are frozen, so nothing was { $family ->
    [buy] bought
    [sell] sold
    [send] sent
   *[withdraw] withdrawn
  }. { $mode ->
    [partner] Only support can open them again: /unfreeze says how to reach them.
   *[account] /unfreeze says how to open them again.
  }
freeze-tapped = 🧊 Frozen.
freeze-already = 🧊 Your money actions are frozen already; nothing changed. /unfreeze says how to open them again.
freeze-not-frozen = Your money actions are not frozen. /freeze (or Freeze under any security notice) stops them at once.
unfreeze-intro = To unfreeze, log in again first.
unfreeze-already = An unfreeze is already on its way: money actions open again on { $time }.
unfreeze-not-logged-in = You are not logged in, so nothing changed: your money actions stay frozen. Try /unfreeze again.
pin-ask-old = Type your current 6-digit PIN (I delete your message at once). /cancel stops here.
pin-ask-new = Now choose a new 6-digit PIN. I delete your message at once.
pin-ask-first = You have no PIN yet (support reset it). Choose a new 6-digit PIN; I delete your message at once.
pin-wrong = That PIN is wrong, so nothing changed. Tries left before PINs are locked for 15 minutes: { $left }. Try /pin again.
pin-locked = 🔒 Too many wrong PINs: locked until { $time }. Try /pin again after that.
pin-changed = ✅ Your PIN is changed.
command-freeze = Freeze all money actions (no code needed)
command-pin = Change your PIN
operator-freeze-usage = Send /freeze, /unfreeze or /pinreset with a partner user id or e-mail, e.g. /freeze 42.
operator-user-not-linked = Partner user { $user } has no chat with this bot.
operator-freeze-done = 🧊 Frozen: partner user { $user }. Their orders and withdrawals are refused until /unfreeze { $user }; they were told.
operator-unfreeze-done = 🔓 Unfrozen: partner user { $user }. They were told, with a Freeze button.
operator-unfreeze-not-frozen = Partner user { $user } is not frozen.
operator-pinreset-done = PIN reset for partner user { $user }. They were told, and set a new one with /pin.
