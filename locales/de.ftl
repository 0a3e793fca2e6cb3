## Shared

button-login = 🔐 Anmelden
button-cancel = Abbrechen
button-back = ‹ Zurück
button-yes = Ja
button-no = Nein
open-private-chat = Privaten Chat mit mir öffnen
error-generic = Bei uns ist etwas schiefgegangen. Bitte versuche es gleich noch einmal. (Referenz: { $ref })
error-exchange-network = Die Börse ist gerade nicht erreichbar. Bitte versuche es in einer Minute noch einmal. (Referenz: { $ref })
error-exchange-timeout = Die Börse hat nicht rechtzeitig geantwortet. Bitte versuche es in einer Minute noch einmal. (Referenz: { $ref })
error-exchange-rate-limited = Die Börse bittet uns, langsamer zu machen. Bitte versuche es in { $seconds } Sekunden noch einmal.
error-exchange-server = Die Börse hat gerade ein Problem. Bitte versuche es später noch einmal. (Referenz: { $ref })
error-exchange-refused = Die Börse hat das abgelehnt: { $message }
error-exchange-not-found = Die Börse kennt diesen Eintrag nicht.
error-exchange-forbidden = Die Börse erlaubt das für dein Konto nicht.
error-exchange-bad-response = Die Börse hat eine Antwort geschickt, die wir nicht lesen konnten. Bitte versuche es später noch einmal. (Referenz: { $ref })
session-expired = Deine Sitzung bei der Börse ist abgelaufen. Melde dich erneut an, um weiterzumachen.
login-required = Bitte melde dich zuerst bei deinem Börsenkonto an.
flow-hint-text = Ich warte hier auf eine Textnachricht. Schick sie, oder /cancel zum Abbrechen.
flow-hint-command = Du bist gerade mitten in einem Vorgang. Schließ ihn erst ab, oder schick /cancel zum Abbrechen.
flow-cancelled = Abgebrochen. Es wurde nichts geändert.
nothing-to-cancel = Es gibt nichts abzubrechen.
flood-slow-down = Du schickst sehr schnell Nachrichten. Bitte warte ein paar Sekunden.
group-private-only = Über Konten spreche ich nur im privaten Chat. Tippe unten, um ihn zu öffnen.
unknown-command = Diesen Befehl kenne ich nicht. Schick /help für die Liste.

## /start and /help

start-welcome =
    Willkommen, { $name }! 👋
    Ich bin der Telegram-Schalter deines Krypto-Börsenkontos.

    Mit mir siehst du Kurse und Guthaben, kaufst, verkaufst und versendest Krypto, überweist Euro auf dein Bankkonto und bekommst Alarme, wenn ein Kurs deine Marke kreuzt.
    Tippe @{ $bot } btc in einem beliebigen Chat für eine Kurskarte.
start-logged-in = Du bist als { $email } angemeldet. Schick /help, um zu sehen, was ich kann.
help-text =
    Was ich kann:
    /login – Anmeldung mit E-Mail, Passwort und 2FA-Code
    /logout – abmelden und alle Geheimnisse vergessen
    /me – deine Kontodaten
    /balance – deine Guthaben
    /prices – alle Kurse mit 24-h-Änderung
    /price btc – ein Kurs
    /buy, /sell – Krypto gegen Euro handeln
    /send – Krypto an eine Adresse senden
    /withdraw – Euro auf dein Bankkonto
    /deposit – deine Einzahlungsadressen
    /banks – deine Bankkonten
    /transactions – deine Transaktionen; /tx ID für eine
    /limits – deine Limits
    /fees – was ein Auftrag kosten würde
    /alerts – Kursalarme
    /settings – Sprache, Benachrichtigungen, Sicherheit
    /language – Sprache ändern
    /cancel – den aktuellen Vorgang abbrechen

command-start = Start
command-help = Was ich kann
command-login = Anmelden
command-logout = Abmelden
command-me = Kontodaten
command-balance = Guthaben
command-prices = Alle Kurse
command-price = Ein Kurs
command-buy = Krypto kaufen
command-sell = Krypto verkaufen
command-send = Krypto senden
command-withdraw = Euro auszahlen
command-deposit = Einzahlungsadressen
command-banks = Bankkonten
command-transactions = Transaktionen
command-limits = Limits
command-fees = Gebühren
command-alerts = Kursalarme
command-settings = Einstellungen
command-language = Sprache
command-cancel = Aktuellen Schritt abbrechen

## /language

language-choose = Wähle deine Sprache:
language-set = Sprache auf Deutsch gestellt.

## /login

login-already = Du bist bereits als { $email } angemeldet. Schick zuerst /logout, um das Konto zu wechseln.
login-ask-email = Bitte schick die E-Mail-Adresse deines Börsenkontos.
login-bad-email = Das sieht nicht nach einer E-Mail-Adresse aus. Bitte schick sie noch einmal, z. B. name@example.com.
login-ask-password = Schick jetzt dein Passwort. Ich lösche die Nachricht sofort.
login-ask-code = Letzter Schritt: Schick den 6-stelligen Code aus deiner Authenticator-App.
login-bad-code-format = Der Code besteht aus den 6 Ziffern, die deine Authenticator-App zeigt. Bitte schick sie.
login-wrong-code = Dieser Code wurde nicht akzeptiert. Bitte schick den aktuellen Code aus deiner Authenticator-App. (noch { $left } Versuche)
login-wrong-credentials = E-Mail oder Passwort ist falsch. Schick /login für einen neuen Versuch. (noch { $left } Versuche)
login-too-many-codes = Zu viele falsche Codes. Schick /login, um neu zu beginnen.
login-rate-limited = Zu viele fehlgeschlagene Anmeldungen. Bitte warte bis { $time } und versuche es dann noch einmal.
login-checking = Ich prüfe das bei der Börse …
login-success = ✅ Angemeldet als { $email }. Deine Sitzung läuft bis { $time }.
login-quick-ask-code = Willkommen zurück, { $email }. Schick den aktuellen 6-stelligen Code aus deiner Authenticator-App, um dich wieder anzumelden.
login-expiry-warning = Deine Börsensitzung endet um { $time }. Schick einen frischen 2FA-Code, um angemeldet zu bleiben.
login-stay-button = Angemeldet bleiben

## /logout

logout-done = Du bist abgemeldet. Ich habe deine Sitzung und alle Geheimnisse, die ich für dich hatte, vergessen.
logout-not-logged-in = Du warst nicht angemeldet. Alle Geheimnisse, die ich für dich hatte, habe ich trotzdem vergessen.
logout-auto = Du wurdest nach { $minutes } Minuten ohne Aktivität abgemeldet, wie es deine Einstellungen vorsehen.

## Amounts

amount-error-empty = Bitte schick einen Betrag.
amount-error-not-a-number = Das ist kein Betrag. Schick eine Zahl wie 100 oder 100,50.
amount-error-negative = Der Betrag darf nicht negativ sein.
amount-error-zero = Der Betrag muss größer als null sein.
amount-error-exponent = Bitte schreib den Betrag aus, ohne Exponent (z. B. 0,001 statt 1e-3).
amount-error-ambiguous-separator = Bitte schreib den Betrag ohne Tausendertrennzeichen, z. B. 1500,50.
amount-error-too-many-decimals = Das hat zu viele Nachkommastellen: hier höchstens { $decimals }.
amount-error-too-long = Dieser Betrag ist viel zu lang.
amount-error-too-large = Dieser Betrag ist zu groß.

## /balance

balance-title = 💼 Deine Guthaben
balance-eur = 💶 Euro: { $amount }
balance-total = 📊 Gesamtwert: { $amount }
balance-crypto-line = • { $amount } ≈ { $value }
balance-no-crypto = Du hast noch kein Krypto. Mit /buy bekommst du welches.
