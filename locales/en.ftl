## Shared

button-login = 🔐 Log in
button-cancel = Cancel
button-back = ‹ Back
button-yes = Yes
button-no = No
open-private-chat = Open a private chat with me
error-generic = Something went wrong on our side. Please try again in a moment. (Reference: { $ref })
error-exchange-network = The exchange cannot be reached right now. Please try again in a minute. (Reference: { $ref })
error-exchange-timeout = The exchange did not answer in time. Please try again in a minute. (Reference: { $ref })
error-exchange-rate-limited = The exchange asks us to slow down. Please try again in { $seconds } seconds.
error-exchange-server = The exchange has a problem right now. Please try again later. (Reference: { $ref })
error-exchange-refused = The exchange refused this: { $message }
error-exchange-not-found = The exchange does not know that item.
error-exchange-forbidden = The exchange does not allow this for your account.
error-exchange-bad-response = The exchange sent an answer we could not read. Please try again later. (Reference: { $ref })
session-expired = Your exchange session has expired. Log in again to continue.
login-required = Please log in to your exchange account first.
flow-hint-text = I am waiting for a text message here. Send it, or /cancel to stop.
flow-hint-command = You are in the middle of something. Finish it first, or send /cancel to stop.
flow-cancelled = Cancelled. Nothing was changed.
nothing-to-cancel = There is nothing to cancel.
flood-slow-down = You are sending messages very fast. Please wait a few seconds.
group-private-only = I only talk about accounts in a private chat. Tap below to open one.
unknown-command = I do not know that command. Send /help for the list.

## /start and /help

start-welcome =
    Welcome, { $name }! 👋
    I am the Telegram desk of your crypto exchange account.

    With me you can check prices and balances, buy, sell and send crypto, withdraw euros to your bank, and get alerts when a price crosses your level.
    Type @{ $bot } btc in any chat for a price card.
start-logged-in = You are logged in as { $email }. Send /help to see what I can do.
help-text =
    What I can do:
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
    /transactions – your transactions; /tx ID for one
    /limits – your limits
    /fees – what an order would cost
    /alerts – price alerts
    /settings – language, notifications, security
    /language – change the language
    /cancel – stop what you are doing

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
command-language = Language
command-cancel = Cancel the current step

## /language

language-choose = Choose your language:
language-set = Language set to English.

## /login

login-already = You are already logged in as { $email }. Send /logout first to switch accounts.
login-ask-email = Please send the e-mail address of your exchange account.
login-bad-email = That does not look like an e-mail address. Please send it again, e.g. name@example.com.
login-ask-password = Now send your password. I delete the message right away.
login-ask-code = Last step: send the 6-digit code from your authenticator app.
login-bad-code-format = The code is the 6 digits your authenticator app shows. Please send them.
login-wrong-code = That code was not accepted. Please send the current code from your authenticator app. ({ $left } tries left)
login-wrong-credentials = E-mail or password is wrong. Send /login to try again. ({ $left } tries left)
login-too-many-codes = Too many wrong codes. Send /login to start again.
login-rate-limited = Too many failed logins. Please wait until { $time } and try again.
login-checking = Checking with the exchange…
login-success = ✅ Logged in as { $email }. Your session lasts until { $time }.
login-quick-ask-code = Welcome back, { $email }. Send the current 6-digit code from your authenticator app to log in again.
login-expiry-warning = Your exchange session ends at { $time }. Send a fresh 2FA code to stay logged in.
login-stay-button = Stay logged in

## /logout

logout-done = You are logged out. I have forgotten your session and every secret I held for you.
logout-not-logged-in = You were not logged in. I have forgotten every secret I held for you anyway.
logout-auto = You were logged out after { $minutes } minutes without activity, as your settings ask.

## Amounts

amount-error-empty = Please send an amount.
amount-error-not-a-number = That is not an amount. Send a number like 100 or 100.50.
amount-error-negative = The amount cannot be negative.
amount-error-zero = The amount must be more than zero.
amount-error-exponent = Please write the amount out in full, without an exponent (e.g. 0.001, not 1e-3).
amount-error-ambiguous-separator = Please write the amount without thousands separators, e.g. 1500.50.
amount-error-too-many-decimals = That has too many decimals: at most { $decimals } here.
amount-error-too-long = That amount is far too long.
amount-error-too-large = That amount is too large.

## /balance

balance-title = 💼 Your balances
balance-eur = 💶 Euro: { $amount }
balance-total = 📊 Total value: { $amount }
balance-crypto-line = • { $amount } ≈ { $value }
balance-no-crypto = You hold no crypto yet. /buy gets you some.
