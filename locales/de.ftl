## Shared

button-login = 🔐 Anmelden
button-cancel = Abbrechen
button-back = ‹ Zurück
open-private-chat = Privaten Chat mit mir öffnen
error-generic = Bei uns ist etwas schiefgegangen. Bitte versuche es gleich noch einmal. (Referenz: { $ref })
error-exchange-network = Die Börse ist gerade nicht erreichbar. Bitte versuche es in einer Minute noch einmal. (Referenz: { $ref })
error-exchange-timeout = Die Börse hat nicht rechtzeitig geantwortet. Bitte versuche es in einer Minute noch einmal. (Referenz: { $ref })
error-exchange-rate-limited = Die Börse bittet uns, langsamer zu machen. Bitte versuche es in { $seconds ->
    [one] einer Sekunde
   *[other] { $seconds } Sekunden
  } noch einmal.
error-exchange-server = Die Börse hat gerade ein Problem. Bitte versuche es später noch einmal. (Referenz: { $ref })
error-exchange-refused = Die Börse hat das abgelehnt. Prüf bitte deine Angaben und versuch es noch einmal. (Referenz: { $ref })
exchange-refused-details = Die Angaben wurden nicht angenommen. Prüf sie bitte und versuch es noch einmal.
exchange-refused-forbidden = Für dein Konto ist das nicht erlaubt.
error-exchange-not-found = Die Börse kennt diesen Eintrag nicht.
error-exchange-forbidden = Die Börse erlaubt das für dein Konto nicht.
error-exchange-bad-response = Die Börse hat eine Antwort geschickt, die wir nicht lesen konnten. Bitte versuche es später noch einmal. (Referenz: { $ref })
error-store-unavailable = Ich erreiche meinen Speicher gerade nicht, daher wurde nichts ausgeführt. Bitte versuche es in einer Minute noch einmal. (Referenz: { $ref })
session-expired = Deine Sitzung bei der Börse ist abgelaufen. Melde dich erneut an, um weiterzumachen.
login-required = Bitte melde dich zuerst bei deinem Börsenkonto an.
flow-hint-text = Ich warte hier auf eine Textnachricht. Schick sie, oder /cancel zum Abbrechen.
flow-hint-command = Du bist gerade mitten in einem Vorgang. Schließ ihn erst ab, oder schick /cancel zum Abbrechen.
flow-cancelled = Abgebrochen. Es wurde nichts geändert.
nothing-to-cancel = Es gibt nichts abzubrechen.
flood-slow-down = Du schickst sehr schnell Nachrichten. Bitte warte ein paar Sekunden.
flood-slow-down-tap = Langsamer bitte: warte ein paar Sekunden.
group-private-only = Über Konten spreche ich nur im privaten Chat. Tippe unten, um ihn zu öffnen.
group-help = In einer Gruppe beantworte ich /prices und /price mit einer Währung, z. B. /price btc. Alles zu deinem Konto (und /help mit allen Befehlen) gibt es in unserem privaten Chat: Tippe unten, um ihn zu öffnen.
unknown-command = Diesen Befehl kenne ich nicht. Schick /help für die Liste.
unknown-command-suggest = { $command } kenne ich nicht. Meintest du { $suggestion }? Schick /help für die Liste.
unknown-text = Das habe ich nicht verstanden. Schick /help, um zu sehen, was ich kann.
unknown-secret-deleted = Das sah nach einem Code oder einer PIN aus, darum habe ich es gelöscht. Der Schritt dafür ist vorbei; fang mit dem Befehl neu an (zum Beispiel /withdraw) oder schick /help.
button-inactive = Diese Schaltfläche ist nicht mehr aktiv.

## /start and /help

start-welcome =
    Willkommen, { $name }! 👋
    Ich bin der Telegram-Schalter deines Krypto-Börsenkontos.

    Mit mir siehst du Kurse und Guthaben, kaufst, verkaufst und versendest Krypto, überweist Euro auf dein Bankkonto und bekommst Alarme, wenn ein Kurs deine Marke kreuzt.
    Tippe @{ $bot } btc in einem beliebigen Chat für eine Kurskarte.
home-title = 🏠 Übersicht · { $who }
home-total = Gesamtguthaben: { $amount }
home-total-unknown = Gesamtguthaben: Die Börse hat gerade nicht geantwortet.
home-moves-title = Heute (24 h):
home-move = { $code } { $price } ({ $change })
home-moves-none = Noch keine Währung im Bestand oder beobachtet: /prices zeigt alle, /alert beobachtet eine.
home-moves-unknown = Die Preise konnten gerade nicht gelesen werden.
home-orders-none = Keine offenen Aufträge.
home-orders-title = { $count ->
    [one] 1 offener Auftrag:
   *[other] { $count } offene Aufträge:
  }
home-button-buy = 🛒 Kaufen
home-button-sell = 💶 Verkaufen
home-button-alerts = 🔔 Alarme
home-button-transactions = 📜 Transaktionen
home-button-refresh = 🔄 Aktualisieren
help-text =
    Was ich kann:
    /home – wo du stehst: Guthaben, heutige Kurse, offene Aufträge
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
    /addresses – deine gespeicherten Krypto-Adressen
    /transactions – deine Transaktionen; /tx ID für eine
    /limits – deine Limits
    /fees – was ein Auftrag kosten würde
    /alerts – Kursalarme
    /recurring – einen festen Betrag nach Plan kaufen
    /settings – Sprache, Benachrichtigungen, Sicherheit
    /safety – Freigabeliste, Wartezeit, eigene Limits
    /freeze – alle Geldaktionen sofort stoppen (ohne Code)
    /language – Sprache ändern
    /cancel – den aktuellen Vorgang abbrechen

command-home = 🏠 Übersicht: Guthaben, Preise von heute, offene Aufträge
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
command-notifications = Benachrichtigungen, Ruhezeit, Tagesübersicht
command-language = Sprache
command-cancel = Aktuellen Schritt abbrechen

## /language

language-choose = Wähle deine Sprache:
language-set = Sprache auf Deutsch gestellt.

## /login

login-already = Du bist bereits als { $email } angemeldet, bis { $time }. Für ein anderes Konto schick zuerst /logout.
login-ask-email = Bitte schick die E-Mail-Adresse deines Börsenkontos. (/cancel zum Abbrechen)
login-bad-email = Das sieht nicht nach einer E-Mail-Adresse aus. Bitte schick sie noch einmal, z. B. name@example.com.
login-ask-password = Schick jetzt dein Passwort. Ich lösche die Nachricht sofort.
login-ask-code = Letzter Schritt: Schick den 6-stelligen Code aus deiner Authenticator-App.
login-bad-code-format = Der Code besteht aus den 6 Ziffern, die deine Authenticator-App zeigt. Bitte schick sie.
login-wrong-code = Dieser Code wurde nicht akzeptiert. Bitte schick den aktuellen Code aus deiner Authenticator-App. ({ $left ->
    [one] noch 1 Versuch
   *[other] noch { $left } Versuche
  })
login-wrong-credentials = E-Mail oder Passwort ist falsch. Schick /login für einen neuen Versuch. ({ $left ->
    [one] noch 1 Versuch
   *[other] noch { $left } Versuche
  })
login-too-many-codes = Zu viele falsche Codes. Schick /login, um neu zu beginnen.
login-rate-limited = Zu viele fehlgeschlagene Anmeldungen. Bitte warte bis { $time } und versuche es dann noch einmal.
login-checking = Ich prüfe das bei der Börse …
login-success = ✅ Angemeldet als { $email }. Deine Sitzung läuft bis { $time }.
login-quick-ask-code = Willkommen zurück, { $email }. Schick den aktuellen 6-stelligen Code aus deiner Authenticator-App, um dich wieder anzumelden.
login-confirm-ask-password = Schick das Passwort von { $email }. Ich lösche die Nachricht sofort. (/cancel zum Abbrechen)
login-confirm-ask-code = Schick den aktuellen 6-stelligen Code aus deiner Authenticator-App für { $email }. (/cancel zum Abbrechen)
login-expiry-warning = Deine Börsensitzung endet um { $time }. Um angemeldet zu bleiben, schick mir einen frischen 2FA-Code aus deiner Authenticator-App (oder tippe unten auf die Schaltfläche).
login-expiry-warning-tap = Deine Börsensitzung endet um { $time }. Um angemeldet zu bleiben, tippe unten auf die Schaltfläche und melde dich neu an.
login-renew-ask-code = Du bist als { $email } angemeldet, bis { $time }. Um länger angemeldet zu bleiben, schick den aktuellen 6-stelligen Code aus deiner Authenticator-App. Für ein anderes Konto schick stattdessen /logout.
login-renew-intro = Du bist als { $email } angemeldet, bis { $time }. Um angemeldet zu bleiben, melde dich jetzt neu an. Für ein anderes Konto schick stattdessen /logout.
login-stay-button = Angemeldet bleiben

## /logout

logout-done = Du bist abgemeldet. Ich habe deine Sitzung und alle Geheimnisse, die ich für dich hatte, vergessen.
logout-not-logged-in = Du warst nicht angemeldet. Alle Geheimnisse, die ich für dich hatte, habe ich trotzdem vergessen.
logout-auto = Du wurdest nach { $minutes ->
    [one] einer Minute
   *[other] { $minutes } Minuten
  } ohne Aktivität abgemeldet, wie es deine Einstellungen vorsehen.

## Amounts

amount-error-empty = Bitte schick einen Betrag.
amount-error-not-a-number = Das ist kein Betrag. Schick eine Zahl wie 100 oder 100,50.
amount-error-negative = Der Betrag darf nicht negativ sein.
amount-error-zero = Der Betrag muss größer als null sein.
amount-error-exponent = Bitte schreib den Betrag aus, ohne Exponent (z. B. 0,001 statt 1e-3).
amount-error-ambiguous-separator = Diesen Betrag kann ich nicht lesen: Die Trennzeichen passen nicht zusammen. Schreib ihn z. B. als 1.500,50 oder 1500,50.
amount-error-too-many-decimals = Das hat zu viele Nachkommastellen: hier höchstens { $decimals }.
amount-error-too-long = Dieser Betrag ist viel zu lang.
amount-error-too-large = Dieser Betrag ist zu groß.

## /balance

balance-title = 💼 Deine Guthaben
balance-eur = 💶 Euro: { $amount }
balance-total = 📊 Gesamtwert: { $amount }
balance-crypto-line = • { $amount } ≈ { $value }
balance-crypto-line-plain = • { $amount }
balance-zero-line = Kein Guthaben in { $codes }
balance-no-crypto = Du hast noch kein Krypto. Mit /buy bekommst du welches.

## /deposit

deposit-title = 📥 <b>Deine Einzahlungsadressen</b>
deposit-showing-newest = Die neuesten { $shown } von { $total }.
deposit-item =
    <b>{ $name }</b>
    <code>{ $address }</code>
deposit-warning = Schick an jede Adresse nur die genannte Währung; alles andere kann verloren gehen. Tippe auf eine Adresse, um sie zu kopieren, oder unten auf einen Knopf für ihren QR-Code.
deposit-none = Du hast noch keine Einzahlungsadresse. Tippe unten, um eine zu erstellen.
deposit-button-new = ➕ Neue Adresse
deposit-button-qr = 📷 QR: { $name } { $tail }
deposit-qr-caption =
    <b>{ $name }</b>-Einzahlungsadresse:
    <code>{ $address }</code>
deposit-new-created =
    ✅ Deine neue <b>{ $name }</b>-Einzahlungsadresse:
    <code>{ $address }</code>
    Schick nur { $name } an sie.
deposit-address-gone = Diese Adresse ist nicht mehr in deiner Liste. Schick /deposit, um die aktuellen zu sehen.
deposit-picker-expired = Diese Auswahl ist abgelaufen. Schick /deposit noch einmal.
deposit-choose-currency = Welche Währung möchtest du empfangen? Tippe eine an oder schreib ihr Kürzel (z. B. BTC). (/cancel zum Abbrechen)
deposit-unknown-currency = „{ $currency }“ kenne ich nicht. Wähle eine von: { $list }
deposit-receive-paused = Der Empfang von { $name } ({ $currency }) ist bei der Börse gerade pausiert, darum kann ich dafür keine Adresse erstellen. Bitte versuche es später noch einmal.

## /banks

banks-title = 🏦 <b>Deine Bankkonten</b> ({ $count })
banks-card =
    <b>{ $name }</b>
    IBAN: { $iban }
    BIC: <code>{ $bic }</code>
    Referenznummer: <code>{ $reference }</code>
    Status: { $state }
banks-state-verified = ✅ verifiziert
banks-state-pending = ⏳ wartet auf die Bestätigungsüberweisung
banks-none = Du hast noch kein Bankkonto bei der Börse.
banks-pending-hint = Ein Konto, das auf die Bestätigung wartet, ist nutzbar, sobald die Börse die kleine Bestätigungsüberweisung von diesem Konto erhalten hat.

## /transactions

transactions-button-export = ⬇️ Exportieren
export-choose = Welchen Zeitraum soll der Auszug (eine CSV-Datei) abdecken?
export-range-this-month = Diesen Monat
export-range-last-month = Letzten Monat
export-range-this-year = Dieses Jahr
export-range-last-year = Letztes Jahr
export-range-all = Alles
export-collecting = Sammle… { $count ->
    [one] 1 Transaktion
   *[other] { $count } Transaktionen
  }
export-collected = { $count ->
    [one] 1 Transaktion
   *[other] { $count } Transaktionen
  } gesammelt.
export-empty = Keine Transaktionen in diesem Zeitraum ({ $range }).
export-caption = 📄 Dein Auszug: { $range }, { $count ->
    [one] 1 Transaktion
   *[other] { $count } Transaktionen
  } (UTF-8-CSV, Zeiten in UTC).
export-too-large = { $left ->
    [one] Die älteste Transaktion passte
   *[other] Die ältesten { $left } Transaktionen passten
  } nicht in Telegrams Dateigrenze von 50 MB: exportiere für sie einen kürzeren Zeitraum.
export-koinly-button = 🧾 Datei für Koinly (Steuer)
export-koinly-choose = Welchen Zeitraum soll die Datei für Koinly abdecken? Sie enthält deine abgeschlossenen Transaktionen im Importformat von Koinly (eine CSV-Datei), bereit für deinen Steuerbericht.
export-koinly-caption = 🧾 Für Koinly: { $range }, { $count ->
    [one] 1 abgeschlossene Transaktion
   *[other] { $count } abgeschlossene Transaktionen
  }. Füge sie in Koinly als eigene CSV-Datei einer Wallet für diese Börse hinzu.
export-koinly-unreadable = { $count ->
    [one] 1 abgeschlossene Transaktion fehlt
   *[other] { $count } abgeschlossene Transaktionen fehlen
  } darin: Die Börse hat die Beträge nicht mitgeteilt. /transactions zeigt sie.
statement-column-date = Datum (UTC)
statement-column-number = Nummer
statement-column-type = Art
statement-column-state = Status
statement-column-amount = Betrag
statement-column-fee = Gebühr
statement-column-details = Adresse oder Referenz
statement-column-bot-order = Dein Auftrag in diesem Bot
statement-column-rate = Kurs
statement-rate = { $rate } pro { $currency }
statement-koinly-description = { $type } #{ $id }
transactions-title = 📜 <b>Deine Transaktionen</b>
transactions-title-filtered = 📜 <b>Deine { $currency }-Transaktionen</b>
transactions-page = Seite { $page }, neueste zuerst
transactions-line =
    { $state } · <b>#{ $id }</b> { $type }{ $amount }
    { $date }
transactions-hint = Schick /tx und eine Nummer für die Details, z. B. /tx { $id }.
transactions-none = Du hast noch keine Transaktionen.
transactions-none-filtered = Du hast keine { $currency }-Transaktionen.
transactions-no-more = Es gibt keine weiteren Transaktionen.
transactions-button-prev = ‹ Zurück
transactions-button-next = Weiter ›
transactions-button-filter = 🔎 Nach Währung filtern
transactions-button-filter-on = 🔎 Filter: { $currency }
transactions-button-all = Alle Währungen
transactions-choose-filter = Die Transaktionen welcher Währung möchtest du sehen?
transactions-unknown-currency = Die Währung „{ $currency }“ kenne ich nicht. Versuch eine von: { $list }, oder /transactions all.
transactions-type-buy = Kauf
transactions-type-sell = Verkauf
transactions-type-send = Krypto-Auszahlung
transactions-type-fiat-withdraw = Euro-Auszahlung
transactions-type-fiat-deposit = Euro-Einzahlung
transactions-type-crypto-deposit = Krypto-Einzahlung
transactions-type-other = Andere Buchung
transactions-state-opened = ⏳ offen
transactions-state-success = ✅ erledigt
transactions-state-error = ❌ fehlgeschlagen
transactions-state-other = ❔ unbekannt
transactions-bad-id = Schick die Transaktionsnummer nach /tx, z. B. /tx { $id } für deine neueste. Die Nummer ist eine ganze Zahl größer als null.
transactions-bad-id-plain = Schick die Transaktionsnummer nach /tx, so wie /transactions sie zeigt. Die Nummer ist eine ganze Zahl größer als null.
transactions-not-found = In deinem Konto gibt es keine Transaktion #{ $id }.
transactions-detail-title = 🧾 <b>Transaktion #{ $id }</b>
transactions-detail-type = Art: { $type }
transactions-detail-state = Status: { $state }
transactions-detail-amount = Betrag: { $amount }
transactions-detail-fee = Gebühr: { $fee }
transactions-detail-miner-fee = Netzwerkgebühr: { $fee }
transactions-detail-price = Preis: { $price } pro { $currency }
transactions-detail-address = Adresse: <code>{ $address }</code>
transactions-detail-reference = Referenznummer: <code>{ $reference }</code>
transactions-detail-created = Erstellt: { $date }
transactions-detail-updated = Aktualisiert: { $date }

## /settings

settings-title = ⚙️ <b>Einstellungen</b>
settings-language-line = 🌐 Sprache: { $language }
settings-notifications-line = 🔔 Benachrichtigungen: Preisalarme { $alerts }, Auftragsmeldungen { $orders }, Sitzungsablauf { $expiry }, Tagesübersicht { $digest }
settings-remember-line = 🔑 Passwort für schnelles Wieder-Anmelden merken: { $state }
settings-autologout-line = ⏱ Automatisch abmelden: { $value }
settings-autologout-never = nie
settings-autologout-after = nach { $minutes ->
    [one] einer Minute
   *[other] { $minutes } Minuten
  } ohne Aktivität
settings-hint = Tippe zum Ändern. Du kannst auch schreiben, z. B. /settings alarme leise oder /settings abmelden 30.
settings-on = an
settings-off = aus
settings-button-alerts = { $mode ->
    [silent] 🔕
    [off] ⛔
   *[on] 🔔
  } Preisalarme: { $state }
settings-button-orders = { $mode ->
    [silent] 🔕
    [off] ⛔
   *[on] 🔔
  } Auftragsmeldungen: { $state }
settings-button-expiry = { $mode ->
    [silent] 🔕
    [off] ⛔
   *[on] 🔔
  } Ablaufwarnung: { $state }
settings-button-digest = { $mode ->
    [silent] 🔕
    [off] ⛔
   *[on] ☀️
  } Tagesübersicht: { $state }
settings-button-notifications = 🔔 Benachrichtigungen…
settings-mode-on = an
settings-mode-silent = lautlos
settings-mode-off = aus
settings-button-remember = 🔑 Passwort merken: { $state }
settings-button-autologout-off = ⏱ Nie
settings-button-autologout = { $minutes } Min.
settings-saved = ✅ Gespeichert.
settings-usage = Diese Einstellung habe ich nicht verstanden. Beispiele: /settings sprache en, /settings alarme aus, /settings aufträge leise, /settings zusammenfassung an, /settings ablauf aus, /settings passwort an, /settings abmelden 30 (oder aus).
settings-remember-on-explained = 🔑 Passwort merken ist an. Ab deiner nächsten /login-Anmeldung bewahre ich dein Passwort verschlüsselt auf und nutze es nur, um dich nach Ablauf der Sitzung wieder anzumelden, zusammen mit einem frischen 2FA-Code, den du mir schickst. Dein 2FA-Geheimnis bewahre ich nie auf, es braucht also immer einen Code von dir. Schalte es hier jederzeit aus, dann vergesse ich das Passwort.
settings-remember-off-done = 🔑 Passwort merken ist aus. Ich habe dein Passwort vergessen; die nächste Anmeldung fragt wieder danach.

## /me

me-title = 👤 Dein Konto
me-name = Name: { $value }
me-email = E-Mail: { $value }
me-address = Adresse: { $value }
me-birth-date = Geburtsdatum: { $value }
me-account-type = Kontoart: { $value }
me-type-personal = privat
me-type-business = geschäftlich
me-company-title = 🏢 Firma
me-company-name = Firma: { $value }
me-company-address = Firmenadresse: { $value }
me-vat-number = USt-IdNr.: { $value }
me-registration-number = Registernummer: { $value }
me-empty = Die Börse hat keine Angaben zu deinem Konto geschickt.

## /prices and /price

prices-title = 📈 Kurse in Euro
prices-line = { $arrow } { $name } ({ $code }): { $price } ({ $change } in 24 h)
prices-hint = Schick /price btc für einen Kurs mit seiner Zeit.
prices-empty = Die Börse listet gerade keine Kurse.
price-ask = Welche Währung? Tippe eine an, oder schick ihr Kürzel oder ihren Namen (z. B. BTC oder Bitcoin). (/cancel zum Abbrechen)
price-rate = { $name } ({ $code }): { $price }
price-change = 24 h: { $arrow } { $change }
price-time = Kurs vom { $time }
price-unknown = Die Währung „{ $input }“ kenne ich nicht. Bekannte Währungen: { $codes }.
chart-title = { $name } ({ $code }) · { $range }
chart-range-24h = 24 Std.
chart-range-7d = 7 Tage
chart-range-30d = 30 Tage
chart-button = { $range }
chart-button-current = • { $range } •
chart-since = Daten seit { $time }
chart-covers = { $unit ->
    [minutes] { $count ->
        [one] 1 Minute
       *[other] { $count } Minuten
    }
    [hours] { $count ->
        [one] 1 Stunde
       *[other] { $count } Stunden
    }
   *[days] { $count ->
        [one] 1 Tag
       *[other] { $count } Tage
    }
  }
chart-top-title = Veränderung in % · { $range }
chart-top-caption = 📈 { $codes }: wie sich jeder Kurs über { $range } in % verändert hat, jede Linie ab ihrem ersten Kurs. /price mit einer Währung zeigt ihr Diagramm in Euro.
prices-chart-button = 📈 Diagramm der Top { $count }
chart-gone = Noch kein Kursverlauf zum Zeichnen.
chart-too-short = 📈 Noch kein Diagramm: Ich sammle Kurse erst seit eben. Tippe in ein paar Minuten unten auf einen Zeitraum, um es zu zeichnen.
chart-too-short-tap = Noch zu wenige Kurse für ein Diagramm: Versuch es in ein paar Minuten noch einmal.

## /limits

limits-title = 📏 Deine Limits
limits-type-fiat-deposit = 💶 Euro-Einzahlungen
limits-type-crypto-deposit = 🪙 Krypto-Einzahlungen
limits-type-fiat-withdrawal = 🏦 Euro-Auszahlungen
limits-type-crypto-withdrawal = 📤 Krypto-Auszahlungen
limits-type-credit-card-buy = 💳 Kartenkäufe
limits-type-other = 📏 Weiteres Limit
limits-today = Heute: { $used } von { $ceiling }
limits-month = Diesen Monat: { $used } von { $ceiling }
limits-empty = Die Börse meldet keine Limits für dein Konto.

## /fees

fees-usage =
    Was würde ein Auftrag kosten? Zum Beispiel:
    /fees kaufen 100 – Kauf für 100 €
    /fees verkaufen 0,01 btc – Verkauf von 0,01 BTC
    /fees senden btc – BTC senden
    Oder wähle unten. (/cancel zum Abbrechen)
fees-button-buy = Kaufen
fees-button-sell = Verkaufen
fees-button-send = Senden
fees-type-unknown = Bitte wähle Kaufen, Verkaufen oder Senden (tippe einen Knopf an oder schreib das Wort).
fees-ask-currency-sell = Welche Währung würdest du verkaufen? Tippe eine an oder schreib ihr Kürzel. (/cancel zum Abbrechen)
fees-ask-currency-send = Welche Währung würdest du senden? Tippe eine an oder schreib ihr Kürzel. (/cancel zum Abbrechen)
fees-ask-amount-buy = Für wie viel Euro würdest du kaufen? Schick eine Zahl wie 100, oder einen Krypto-Betrag wie 0,01 btc. (/cancel zum Abbrechen)
fees-ask-amount = Wie viel { $code }? Schick eine Zahl, z. B. { $example }. (/cancel zum Abbrechen)
fees-unknown-currency = Die Währung „{ $input }“ kenne ich nicht. Bekannt: { $codes } und EUR.
fees-send-eur = Euro werden nicht gesendet, sondern auf dein Bankkonto ausgezahlt: siehe /withdraw. Wähle eine Kryptowährung.
fees-buy-title = 🧾 Gebühr für einen Kauf
fees-sell-title = 🧾 Gebühr für einen Verkauf
fees-amount = Betrag: { $amount }
fees-amount-converted = Betrag: { $amount } ≈ { $eur }
fees-fee = Gebühr: { $fee } ({ $percent } % des Betrags)
fees-estimate = ℹ️ Das ist eine Schätzung: Der Betrag wurde zu { $rate } je { $code } umgerechnet, dem aktuellen Kurs. Die Gebühr wird auf den Euro-Betrag berechnet und kann beim Auftrag abweichen.
fees-send-title = 🧾 Gebühren für das Senden von { $code }
fees-send-fee = Gebühr der Börse: { $fee }
fees-send-miner-fee = Miner-Gebühr: { $fee }
fees-send-total = Gebühren zusammen: { $fee }
fees-send-minimum = Mindestbetrag zum Senden: { $minimum }
fees-send-amount = { $amount } zu senden kostet { $fee } an Gebühren.
fees-send-below-minimum = ⚠️ { $amount } liegt unter dem Mindestbetrag von { $minimum }.

## /banks: hinzufügen und entfernen

banks-button-add = ➕ Hinzufügen
banks-button-remove = 🗑 Entfernen
banks-button-cancel = Abbrechen
banks-button-confirm-add = ✅ Konto hinzufügen
banks-button-confirm-remove = 🗑 Ja, entfernen
banks-button-keep = Behalten
banks-button-stale = Dieser Knopf ist nicht mehr aktiv. Sende /banks, um neu zu beginnen.
banks-too-many-tries = Das hat nicht geklappt. Nichts wurde geändert; sende /banks, um neu zu beginnen.
banks-add-ask-name = Wie heißt die Bank? (Zum Beispiel: Sparkasse Berlin.) Mit /cancel brichst du ab.
banks-add-ask-iban = Wie lautet die IBAN des Kontos? Du kannst sie mit oder ohne Leerzeichen senden.
banks-add-ask-bic = Wie lautet die BIC (SWIFT-Code) der Bank? Eine BIC hat 8 oder 11 Zeichen, zum Beispiel COBADEFFXXX.
banks-add-ask-amount =
    Wie viele Euro überweist du von diesem Konto, um es zu bestätigen? Sende einen kleinen Betrag wie 1,00.
    Das Konto ist bestätigt, wenn eine Überweisung über genau diesen Betrag von ihm eingeht.
banks-name-too-short = Bitte sende den Namen der Bank (mindestens zwei Zeichen, mit Buchstaben).
banks-name-too-long = Der Name ist zu lang: höchstens { $max ->
    [one] 1 Zeichen
   *[other] { $max } Zeichen
  }, bitte.
banks-name-characters = Bitte sende den Namen der Bank ohne die Zeichen < > { "{" } { "}" }.
banks-iban-empty = Bitte sende die IBAN.
banks-iban-characters = Eine IBAN hat nur Buchstaben und Ziffern (Leerzeichen sind in Ordnung). Bitte prüfe sie und sende sie noch einmal.
banks-iban-country = „{ $country }“ ist kein Ländercode eines IBAN-Landes. Eine IBAN beginnt mit zwei Buchstaben, z. B. DE für Deutschland. Bitte prüfe sie und sende sie noch einmal.
banks-iban-length = Diese IBAN hat die falsche Länge für { $country }. Vielleicht fehlt eine Ziffer oder ist doppelt: Bitte prüfe sie und sende sie noch einmal.
banks-iban-format = Diese IBAN hat nicht das Format, das in { $country } gilt. Bitte prüfe sie und sende sie noch einmal.
banks-iban-checksum = Die Prüfziffern dieser IBAN stimmen nicht: Wahrscheinlich ist ein Tippfehler darin. Bitte prüfe sie und sende sie noch einmal.
banks-iban-exists = Diese IBAN hast du schon hinzugefügt. Sende eine andere oder /cancel.
banks-bic-format = Das ist keine gültige BIC. Eine BIC hat 8 oder 11 Buchstaben und Ziffern, wie COBADEFFXXX. Bitte sende sie noch einmal.
banks-bic-country = Die Länderbuchstaben der BIC (Zeichen 5 und 6) sind kein bekanntes Land. Bitte prüfe sie und sende sie noch einmal.
banks-add-summary =
    🏦 <b>Dieses Bankkonto hinzufügen?</b>

    Bank: <b>{ $name }</b>
    IBAN: <code>{ $iban }</code>
    BIC: <code>{ $bic }</code>
    Bestätigungsüberweisung: { $amount }
banks-add-confirm-hint = Tippe auf „Konto hinzufügen“ oder auf Abbrechen.
banks-add-refused = Die Börse hat das Konto nicht hinzugefügt: { $message }
    Nichts wurde geändert. Sende /banks, um es noch einmal zu versuchen.
banks-add-created =
    ✅ <b>Bankkonto hinzugefügt</b>: { $name }, <code>{ $iban }</code>

    Referenznummer: <code>{ $reference }</code>

    <b>So bestätigst du es:</b> Überweise genau <b>{ $amount }</b> von diesem Konto (<code>{ $iban }</code>) an die Börse, mit der Referenznummer <code>{ $reference }</code> als Verwendungszweck. Sobald die Überweisung eingegangen ist, ist das Konto bestätigt und du kannst mit /withdraw darauf auszahlen. Bis dahin zeigt /banks es als wartend an.
banks-remove-ask =
    Welches Bankkonto möchtest du entfernen? Tippe darauf oder sende seine Nummer. (/cancel zum Abbrechen)
    { $list }
banks-remove-which = Bitte tippe auf ein Konto oder sende seine Nummer (1 bis { $count }).
banks-remove-last = Das ist dein einziges Bankkonto, und die Börse behält immer mindestens eines. Füge zuerst ein anderes Konto hinzu (/banks add) und entferne dann dieses.
banks-remove-confirm =
    Dieses Bankkonto entfernen?

    { $card }
banks-remove-confirm-hint = Tippe auf „Ja, entfernen“ oder „Behalten“.
banks-remove-kept = Behalten. Nichts wurde geändert.
banks-removed = 🗑 Entfernt: { $bank }
banks-remove-gone = { $bank } ist nicht mehr bei der Börse (auf einem anderen Gerät entfernt?). Sonst wurde nichts geändert.
banks-remove-refused = Die Börse hat das Konto nicht entfernt: { $message }

## Market feed and inline mode

market-no-source = Ich habe noch keine Verbindung zu den Kursen der Börse. Melde dich mit /login an oder versuch es später noch einmal.
market-unavailable = Die Börse ist gerade nicht erreichbar, und ich habe keine früheren Kurse. Bitte versuch es in einer Minute noch einmal.
market-stale = ⚠️ Stand vor { $minutes ->
    [0] weniger als einer Minute
    [one] einer Minute
   *[other] { $minutes } Minuten
  }: Die Börse ist gerade nicht erreichbar.
market-price-usage = Schick /price mit einer Währung, zum Beispiel /price btc. Bekannte Währungen: { $codes }.
inline-title = { $name } ({ $code }): { $price }
inline-description = 24 h: { $arrow } { $change }
inline-description-stale = 24 h: { $arrow } { $change } · Stand vor { $minutes } Min.
inline-open-bot = Unbekannte Währung: Bot öffnen
inline-no-source = Noch keine Kurse: Bot öffnen
inline-unavailable = Kurse gerade nicht verfügbar: Bot öffnen

## /buy und /sell (trade-*), Auftragsverlauf und Meldungen (order-*)
trade-ask-currency-buy = Welche Währung möchtest du kaufen? Tippe auf eine oder schreibe ihr Kürzel. (/cancel zum Abbrechen)
trade-ask-currency-sell = Welche Währung möchtest du verkaufen? Tippe auf eine oder schreibe ihr Kürzel. (/cancel zum Abbrechen)
trade-ask-amount-buy = Für wie viel Euro möchtest du { $code } kaufen? Sende eine Zahl wie 100 oder 100,50 (die Gebühr kommt dazu). (/cancel zum Abbrechen)
trade-ask-amount-sell = Wie viel { $code } möchtest du verkaufen? Sende eine Zahl wie 0,01. (/cancel zum Abbrechen)
trade-amount-again = Sende einen anderen Betrag, oder /cancel zum Abbrechen.
trade-unknown-currency = Die Währung „{ $input }“ kenne ich nicht. Bekannt: { $codes }.
trade-refused-closed-buy = Der Kauf von { $code } ist bei der Börse gerade geschlossen. Versuche es später, oder /cancel.
trade-refused-closed-sell = Der Verkauf von { $code } ist bei der Börse gerade geschlossen. Versuche es später, oder /cancel.
trade-refused-minimum = Das liegt unter dem Mindestbetrag von { $minimum }.
trade-refused-fee = Das ist zu wenig: Die Gebühr von { $fee } würde alles aufbrauchen.
trade-refused-balance-buy = Dein Euro-Guthaben beträgt { $balance }, dieser Kauf braucht aber { $needed } (inklusive Gebühr).
trade-refused-balance-sell = Dein Guthaben beträgt { $balance }, dieser Verkauf braucht aber { $needed }.
trade-refused-limit = Das ist mehr, als die Börse dich kaufen lässt: noch { $left } { $period ->
    [month] in diesem Monat
   *[other] heute
  }. Versuch es mit einem kleineren Betrag.
trade-card-title-buy = 🧾 { $code } kaufen: dein Angebot
trade-card-title-sell = 🧾 { $code } verkaufen: dein Angebot
trade-card-rate = Kurs: { $rate } pro { $code }
trade-card-fee = Gebühr: { $fee }
trade-card-pay = Du zahlst: { $amount }
trade-card-get = Du erhältst etwa: { $amount }
trade-card-minimum = Mindestbetrag: { $minimum }
trade-card-limit-none = Für Verkäufe gilt kein Limit.
trade-card-open-buy = ✅ Der Kauf von { $code } ist offen.
trade-card-open-sell = ✅ Der Verkauf von { $code } ist offen.
trade-card-expires = Dieses Angebot gilt bis { $time }. Danach bekommst du mit Bestätigen ein neues.
trade-button-confirm = ✅ Bestätigen
trade-button-change = ✏️ Betrag ändern
trade-button-cancel = ✖️ Abbrechen
trade-card-placing = ⏳ Bestätigt. Dein Auftrag wird erteilt …
trade-card-cancelled = ✖️ Abgebrochen.
trade-card-changed = ✏️ Ersetzt: Du änderst den Betrag.
trade-card-expired = ⌛ Dieses Angebot ist abgelaufen.
trade-card-replaced = ⌛ Dieses Angebot wurde durch ein neueres ersetzt.
trade-cancelled = Abgebrochen. Es wurde nichts beauftragt.
trade-tap-placing = Dein Auftrag wird erteilt …
trade-tap-already = Dieser Auftrag wurde bereits erteilt. Nichts wurde doppelt beauftragt.
trade-tap-expired = Dieses Angebot ist abgelaufen; hier ist ein neues.
trade-tap-replaced = Dieses Angebot wurde durch ein neueres ersetzt. Nutze die neueste Karte.
trade-tap-cancelled = Dieses Angebot wurde abgebrochen. Es wurde nichts beauftragt.
trade-tap-not-yours = Diese Schaltfläche ist nicht für dich.
trade-tap-unknown = Dieses Angebot gilt nicht mehr. Beginne neu mit /buy oder /sell.
trade-requoted = Kurse bewegen sich: Dein Angebot war älter als eine Minute, hier ist ein neues. Es wurde noch nichts beauftragt.
trade-placed = ✅ Auftrag erteilt: { $summary }. Ich sage dir Bescheid, wenn er abgeschlossen ist.
trade-unknown = ⚠️ Die Börse hat nicht rechtzeitig geantwortet, daher weiß ich noch nicht, ob dein Auftrag ({ $summary }) angekommen ist. Ich sende ihn NICHT noch einmal. Ich prüfe es und sage dir Bescheid.
trade-failed = ❌ Die Börse hat den Auftrag abgelehnt, es wurde also nichts beauftragt. Prüf Betrag und Guthaben und versuch es dann noch einmal.
trade-failed-login = Deine Sitzung bei der Börse ist abgelaufen, daher wurde nichts beauftragt. Melde dich neu an und beginne von vorn.
order-summary-buy = { $code } für { $amount } kaufen
order-summary-sell = { $amount } verkaufen
order-summary-send = { $amount } an { $address } senden
order-summary-withdraw = { $amount } auf dein Bankkonto auszahlen
order-notice-placed = ✅ Dein Auftrag ({ $summary }) ist doch bei der Börse angekommen. Ich sage dir Bescheid, wenn er abgeschlossen ist.
order-notice-not-placed = ℹ️ Dein Auftrag ({ $summary }) ist 10 Minuten nach dem Senden nicht bei der Börse: Er ist sehr wahrscheinlich nie angekommen, und dann wurde auch nichts abgebucht. Bitte sieh in /transactions nach, bevor du ihn erneut erteilst.
order-notice-unknown = ⚠️ Ich kann nicht sagen, ob dein Auftrag ({ $summary }) bei der Börse angekommen ist: Sie hat über deine Transaktionen in einer Form geantwortet, die ich nicht lesen kann. Er kann ausgeführt und abgebucht worden sein oder auch nicht. Bitte sieh in /transactions nach, bevor du ihn erneut erteilst; ich sage dir Bescheid, wenn ich es herausfinde.
order-notice-settled = 🎉 Dein Auftrag ({ $summary }) ist abgeschlossen.
order-notice-settled-fee = 🎉 Dein Auftrag ({ $summary }) ist abgeschlossen. Die Börse hat eine Gebühr von { $fee } berechnet.
order-notice-failed = ❌ Die Börse meldet deinen Auftrag ({ $summary }) als fehlgeschlagen und nennt keinen Grund. Schau bitte in /balance und /transactions, bevor du es noch einmal versuchst.

## /send

send-ask-currency = Welche Währung möchtest du senden? Tippe auf eine oder schreibe ihr Kürzel. (/cancel zum Abbrechen)
send-unknown-currency = Die Währung „{ $input }“ kenne ich nicht. Du kannst senden: { $codes }.
send-eur = Euro werden nicht gesendet, sondern auf dein Bankkonto ausgezahlt: siehe /withdraw. Wähle eine Kryptowährung.
send-refused-closed = Das Senden von { $code } ist bei der Börse gerade pausiert. Bitte versuche es später noch einmal.
send-ask-address = Schick mir die { $code }-Adresse, an die gesendet werden soll. Du kannst sie einfügen{ $example ->
    [none] .
   *[other] , auch als Zahlungslink (z. B. { $example }).
  } (/cancel zum Abbrechen)
send-address-empty = Bitte sende die Adresse des Empfängers.
send-address-too-long = Das ist viel zu lang für eine Adresse. Bitte füge nur die { $code }-Adresse des Empfängers ein.
send-address-invalid = Das ist keine gültige { $code }-Adresse: Vielleicht ist ein Zeichen falsch oder fehlt. Bitte prüfe sie und sende sie noch einmal.
send-address-other-currency = Das ist eine { $other }-Adresse, keine { $code }-Adresse. Coins, die ins falsche Netz gehen, sind verloren: Bitte sende eine { $code }-Adresse.
send-ask-amount = Wie viel { $code } möchtest du an { $address } senden? Sende eine Zahl, z. B. 0,01.
send-ask-amount-again = Bitte sende einen anderen Betrag oder /cancel.
send-refused-minimum = Das ist unter dem Mindestbetrag zum Senden: mindestens { $minimum }.
send-refused-balance = Dein Guthaben ist { $balance }, und dieses Senden würde { $total } kosten (mit { $fees } Gebühren). Du kannst höchstens { $most } senden.
send-refused-limit-day = Das ist { $value } wert, mehr als von deinem täglichen Krypto-Auszahlungslimit übrig ist: { $left }.
send-refused-limit-month = Das ist { $value } wert, mehr als von deinem monatlichen Krypto-Auszahlungslimit übrig ist: { $left }.
send-card-title = 📤 <b>{ $code } senden</b>
send-card-amount = Betrag: <b>{ $amount }</b> (≈ { $value })
send-card-address = An: <code>{ $address }</code>
send-card-fee = Börsengebühr: { $fee }
send-card-miner-fee = Netzwerkgebühr: { $fee }
send-card-total = Von deinem Guthaben abgezogen: <b>{ $total }</b>
send-card-balance = Guthaben: { $balance } → { $after }
send-card-minimum = Mindestbetrag: { $minimum }
send-card-limit-day = Tägliches Krypto-Auszahlungslimit übrig: { $left }
send-card-limit-month = Monatliches Krypto-Auszahlungslimit übrig: { $left }
send-card-check = ⚠️ Prüfe die Adresse: Senden lässt sich nicht rückgängig machen. Nach „Bestätigen“ frage ich nach deinem 2FA-Code.
send-card-expires = Dieses Angebot gilt bis { $time }.
send-button-confirm = ✅ Bestätigen
send-button-cancel = ✖️ Abbrechen
send-button-stale = Dieser Knopf ist nicht mehr aktiv. Sende /send für ein neues Angebot.
send-cancelled = Abgebrochen. Es wurde nichts gesendet.
send-quote-expired = Dieses Angebot ist abgelaufen, hier ist ein neues.
send-replaced = Dieses Angebot wurde durch ein neueres ersetzt. Es wurde nichts gesendet.
send-code-ask = Bestätigt. Gib jetzt den aktuellen 6-stelligen Code aus deiner Authenticator-App ein (ich lösche deine Nachricht sofort). Ohne ihn wird nichts gesendet; /cancel bricht hier ab.
send-code-format = Bitte gib den 6-stelligen Code aus deiner Authenticator-App ein (nur Ziffern).
send-code-awaited = Schon bestätigt: Gib jetzt deinen 6-stelligen Code ein.
send-code-wrong = Die Börse hat den Code nicht angenommen (falsch oder abgelaufen). Bitte gib den aktuellen Code ein. Verbleibende Versuche: { $left }.
send-code-too-many = Der Code wurde zu oft abgelehnt, darum habe ich das Senden abgebrochen. Es wurde nichts gesendet. Beginne neu mit /send.
send-code-late = Das hat zu lange gedauert, darum habe ich das Senden abgebrochen. Es wurde nichts gesendet. Hol dir mit /send ein neues Angebot.
send-sending = Ich gebe den Auftrag an die Börse…
send-placed = ✅ Die Börse hat deinen Auftrag angenommen: { $amount } an <code>{ $address }</code>. Ich sage dir Bescheid, sobald er durch ist.
send-failed = Die Börse hat dieses Senden abgelehnt, es wurde also nichts gesendet. Prüf Adresse, Betrag und Guthaben und versuch es dann noch einmal.
    Es wurde nichts gesendet.
send-login-needed = Deine Sitzung bei der Börse ist abgelaufen, darum wurde nichts gesendet. Melde dich neu an und beginne dann mit /send von vorn.
send-unknown = ⚠️ Die Börse hat nicht rechtzeitig geantwortet, darum weiß ich noch nicht, ob das Senden ausgeführt wurde. Sende es nicht noch einmal: Ich prüfe es und sage dir, was passiert ist.
send-sent-already = Dieses Senden wurde schon an die Börse übergeben. Es wurde nichts weiter getan.

# /alert und /alerts: Preisalarme (src/bot/features/alerts.ts)
alert-usage =
    Einen Preisalarm setzen:
    /alert btc über 60000
    /alert eth unter 2000
    /alert btc änderung 5% – die Änderung in 24 h, nach oben oder unten
    Jeder Alarm meldet sich einmal, wenn seine Schwelle überschritten wird. /alerts zeigt sie.
alert-guide-currency = 🔔 Ein neuer Preisalarm. Für welche Währung? Tipp sie an oder schreib ihr Kürzel.
alert-guide-currency-unknown = Diese Währung kenne ich nicht. Tipp auf eine der Schaltflächen oder schreib ein Kürzel wie BTC.
alert-guide-kind = Wann soll ich dir zu { $code } Bescheid geben?
alert-guide-kind-now = Wann soll ich dir zu { $code } Bescheid geben? Gerade steht der Kurs bei { $price }.
alert-guide-tap = Bitte tipp auf eine der Schaltflächen (oder /cancel zum Abbrechen).
alert-guide-above = Über welchem Preis in EUR? { $code } steht gerade bei { $price }. Schreib ihn, zum Beispiel 65000.
alert-guide-below = Unter welchem Preis in EUR? { $code } steht gerade bei { $price }. Schreib ihn, zum Beispiel 55000.
alert-guide-change = Um wie viel Prozent innerhalb von 24 Stunden, nach oben oder unten? { $code } hat sich in den letzten 24 Stunden um { $change } bewegt. Schreib die Zahl, zum Beispiel 5.
alert-guide-button-above = 📈 Über einem Preis
alert-guide-button-below = 📉 Unter einem Preis
alert-guide-button-change = ↕️ 24-h-Bewegung in %
alert-unknown-currency = Die Währung „{ $input }“ kenne ich nicht. Bekannte Währungen: { $codes }.
alert-no-market = Ich erreiche die Marktpreise gerade nicht und kann den Alarm daher nicht prüfen. Bitte versuche es in einer Minute noch einmal.
alert-change-out-of-range = Ein Alarm auf die 24-h-Änderung braucht einen Wert von { $min } % bis { $max } %: Ein Preis kann nicht um mehr als 100 % fallen. Zum Beispiel: /alert btc change 5%
alert-limit = Du hast schon { $limit ->
    [one] einen Alarm
   *[other] { $limit } Alarme
  }, mehr geht nicht. Entferne zuerst einen unter /alerts.
alert-duplicate = Diesen Alarm hast du schon: { $alert }.
alert-added = ✅ Alarm gesetzt: { $alert }.
alert-now = Jetzt: { $price } ({ $change } in 24 h).
alert-already = Das ist schon jetzt der Fall, er meldet sich also bei der nächsten Preisprüfung.
alert-added-hint = Er meldet sich einmal; erneut erst, wenn der Preis um 1 % hinter die Schwelle zurückgegangen ist (bei Änderungsalarmen um ein Fünftel der Schwelle). /alerts zeigt deine Alarme.
alert-notifications-off = Hinweis: Preisalarme sind unter /settings ausgeschaltet; dieser bleibt stumm, bis du sie einschaltest.
alert-describe-above = { $code } über { $level }
alert-describe-below = { $code } unter { $level }
alert-describe-change = { $code } bewegt sich { $level } in 24 h
alert-fired-above = 🔔 { $name } ({ $code }) hat { $level } erreicht (gleich oder darüber): { $price } ({ $change } in 24 h).
alert-fired-below = 🔔 { $name } ({ $code }) hat { $level } erreicht (gleich oder darunter): { $price } ({ $change } in 24 h).
alert-fired-change = 🔔 { $name } ({ $code }) hat sich in 24 h um { $change } bewegt (dein Alarm: { $level }): { $price }.
alert-fired-hint = Dieser Alarm meldet sich wieder, wenn der Preis zurückgegangen ist und die Schwelle erneut überschreitet. /alerts zum Verwalten.
alert-held-now = ⏱ Während deiner Ruhezeit zurückgehalten: Ausgelöst bei { $crossed }, jetzt { $price }.
alert-remove-button = 🗑 Diesen Alarm entfernen
alert-buy-button = 🛒 Für { $amount } kaufen
alert-sell-button = 💶 { $amount } verkaufen
alert-sell-ask-button = 💶 { $code } verkaufen…
alert-another-button = 🔔 Weiteren Alarm setzen
alert-tap-again = Dein Angebot ist unterwegs: eine Karte pro Tipp.
alert-another =
    Setz einen weiteren Alarm für { $code } (jetzt { $price }), zum Beispiel:
    /alert { $command } über { $above }
    /alert { $command } unter { $below }
    /alert { $command } änderung 5%
alerts-title = 🔔 Deine Preisalarme
alerts-empty = Du hast keine Preisalarme. Setze einen, z. B. /alert btc über 60000.
alerts-fired-mark = (ausgelöst; wartet, bis der Preis zurückgeht)
alerts-hint = Tippe auf 🗑, um einen zu entfernen. Bis zu { $limit } sind möglich; weitere mit /alert.
alerts-remove-button = 🗑 { $alert }
alerts-new-button = ➕ Neuer Alarm
alerts-removed = Alarm entfernt.
alerts-gone = Diesen Alarm gibt es nicht mehr.

## /withdraw

withdraw-no-banks = Du hast noch kein Bankkonto bei der Börse. Füge eines mit /banks add hinzu; sobald es bestätigt ist, kannst du darauf auszahlen.
withdraw-none-verified =
    Keines deiner Bankkonten ist schon bestätigt, darum kannst du noch nicht darauf auszahlen:
    { $list }
    Ein Konto ist bestätigt, sobald die Börse seine kleine Bestätigungsüberweisung erhalten hat (siehe /banks).
withdraw-pending-mark = (⏳ noch nicht bestätigt)
withdraw-ask-bank =
    Auf welches Bankkonto? Tippe darauf oder sende seine Nummer. (/cancel zum Abbrechen)
    { $list }
withdraw-which-bank = Bitte tippe auf ein Bankkonto oder sende seine Nummer (1 bis { $count }).
withdraw-bank-pending = Dieses Konto ist noch nicht bestätigt, darum kannst du nicht darauf auszahlen: Die Börse wartet noch auf seine Bestätigungsüberweisung (siehe /banks). Bitte wähle ein bestätigtes Konto.
withdraw-bank-gone = Dieses Bankkonto gibt es bei der Börse nicht mehr. Es wurde nichts ausgezahlt; beginne neu mit /withdraw.
withdraw-ask-amount = Wie viele Euro möchtest du auf { $bank } auszahlen? Sende eine Zahl wie 100 oder 100,50. (/cancel zum Abbrechen)
withdraw-ask-amount-again = Bitte sende einen anderen Betrag oder /cancel.
withdraw-refused-balance = Das ist mehr als dein Guthaben von { $balance }.
withdraw-refused-limit-day = Das ist mehr, als von deinem täglichen Auszahlungslimit übrig ist: { $left }.
withdraw-refused-limit-month = Das ist mehr, als von deinem monatlichen Auszahlungslimit übrig ist: { $left }.
withdraw-card-title = 🏦 <b>Euro auszahlen</b>
withdraw-card-amount = Betrag: <b>{ $amount }</b>
withdraw-card-bank = An: { $name } · { $iban }
withdraw-card-reference = Referenznummer: <code>{ $reference }</code>
withdraw-card-balance = Guthaben: { $balance } → { $after }
withdraw-card-limit-day = Tägliches Auszahlungslimit übrig: { $left }
withdraw-card-limit-month = Monatliches Auszahlungslimit übrig: { $left }
withdraw-card-check = Nach „Bestätigen“ frage ich nach deinem 2FA-Code.
withdraw-card-expires = Dieses Angebot gilt bis { $time }.
withdraw-button-confirm = ✅ Bestätigen
withdraw-button-cancel = ✖️ Abbrechen
withdraw-button-stale = Dieser Knopf ist nicht mehr aktiv. Sende /withdraw, um neu zu beginnen.
withdraw-cancelled = Abgebrochen. Es wurde nichts ausgezahlt.
withdraw-quote-expired = Dieses Angebot ist abgelaufen, hier ist ein neues.
withdraw-replaced = Dieses Angebot wurde durch ein neueres ersetzt. Es wurde nichts ausgezahlt.
withdraw-code-ask = Bestätigt. Gib jetzt den aktuellen 6-stelligen Code aus deiner Authenticator-App ein (ich lösche deine Nachricht sofort). Ohne ihn wird nichts ausgezahlt; /cancel bricht hier ab.
withdraw-code-format = Bitte gib den 6-stelligen Code aus deiner Authenticator-App ein (nur Ziffern).
withdraw-code-awaited = Schon bestätigt: Gib jetzt deinen 6-stelligen Code ein.
withdraw-code-wrong = Die Börse hat den Code nicht angenommen (falsch oder abgelaufen). Bitte gib den aktuellen Code ein. Verbleibende Versuche: { $left }.
withdraw-code-too-many = Der Code wurde zu oft abgelehnt, darum habe ich die Auszahlung abgebrochen. Es wurde nichts ausgezahlt. Beginne neu mit /withdraw.
withdraw-code-late = Das hat zu lange gedauert, darum habe ich die Auszahlung abgebrochen. Es wurde nichts ausgezahlt. Hol dir mit /withdraw ein neues Angebot.
withdraw-sending = Ich gebe den Auftrag an die Börse…
withdraw-placed = ✅ Die Börse hat deine Auszahlung von { $amount } auf { $bank } angenommen. Ich sage dir Bescheid, sobald sie durch ist.
withdraw-failed = Die Börse hat diese Auszahlung abgelehnt, es wurde also nichts ausgezahlt. Prüf Betrag und Guthaben und versuch es dann noch einmal.
    Es wurde nichts ausgezahlt.
withdraw-login-needed = Deine Sitzung bei der Börse ist abgelaufen, darum wurde nichts ausgezahlt. Melde dich neu an und beginne dann mit /withdraw von vorn.
withdraw-unknown = ⚠️ Die Börse hat nicht rechtzeitig geantwortet, darum weiß ich noch nicht, ob die Auszahlung ausgeführt wurde. Gib sie nicht noch einmal auf: Ich prüfe es und sage dir, was passiert ist.
withdraw-sent-already = Diese Auszahlung wurde schon an die Börse übergeben. Es wurde nichts weiter getan.
trade-tap-expired-again = Dieses Angebot ist abgelaufen und wurde bereits neu berechnet. Nutze die neueste Karte.
order-typed-none = Kein Angebot wartet auf dein Bestätigen oder Abbrechen. Beginne mit /buy, /sell, /send oder /withdraw.

## Re-login inside a flow

session-expired-in-flow = Deine Börsensitzung ist abgelaufen. Melde dich erneut an, dann machen wir da weiter, wo du warst.
login-first-then-quote = Melde dich zuerst an; dein Angebot folgt gleich danach.
login-expired-ask-password = Schick das Passwort von { $email }. Ich lösche die Nachricht sofort.
login-expired-ask-code = Schick den aktuellen 6-stelligen Code aus deiner Authenticator-App, um dich wieder als { $email } anzumelden.

## Mini-App-Anmeldung (die Seite unter /webapp/login)

webapp-title = Bei deinem Börsenkonto anmelden
webapp-intro = Passwort und Code gehen direkt an den Server dieses Bots, nicht in den Chat.
webapp-email = E-Mail
webapp-password = Passwort
webapp-code = 6-stelliger Code aus deiner Authenticator-App
webapp-submit = Anmelden
webapp-done = ✅ Angemeldet. Du kannst diese Seite schließen und zum Chat zurückkehren.
webapp-not-from-telegram = Öffne diese Seite über die Schaltfläche „Anmelden“ im Chat mit dem Bot.
webapp-failed = Das hat nicht geklappt. Prüfe deine Verbindung und versuche es noch einmal.
webapp-bad-email-or-password = Bitte gib die E-Mail-Adresse und das Passwort deines Börsenkontos ein.
webapp-bad-code-format = Der Code besteht aus den 6 Ziffern, die deine Authenticator-App zeigt.
webapp-wrong-code = Dieser Code wurde nicht akzeptiert. Gib den aktuellen Code aus deiner Authenticator-App ein. (noch { $left } Versuche)
webapp-wrong-credentials = E-Mail oder Passwort ist falsch. (noch { $left } Versuche)

## Anti-Phishing-Satz

phishing-line = 🛡 Dein Anti-Phishing-Satz: { $phrase }
settings-phishing-line = 🛡 Anti-Phishing-Satz: { $phrase }
settings-phishing-none = nicht gesetzt
settings-button-phishing-set = 🛡 Anti-Phishing-Satz festlegen
settings-button-phishing-change = 🛡 Satz ändern
settings-button-phishing-remove = 🛡 Satz entfernen
settings-phishing-ask = 🛡 Schick mir die Wörter, die auf meinen Nachrichten stehen sollen: Wörter, die nur du kennst, { $min } bis { $max } Zeichen (zum Beispiel: blauer Tiger 42). Ich lösche deine Nachricht sofort. /cancel zum Abbrechen.
settings-phishing-saved = 🛡 Gespeichert. Ich habe deine Nachricht gelöscht; ab jetzt steht dein Satz auf jeder Nachricht, in der ich nach deinem Passwort oder einem Code frage, und auf jeder Angebotskarte und Auftragsnachricht.
settings-phishing-removed = 🛡 Dein Anti-Phishing-Satz ist entfernt.
settings-phishing-bad = Der Satz braucht { $min } bis { $max } Zeichen. Ich habe deine Nachricht gelöscht; schick mir einen anderen, oder /cancel zum Abbrechen.

## Partner mode: buy, sell and withdraw (orders through the partner API)
partner-card-pay-plus-fee = Du zahlst: { $amount }, dazu die Gebühr der Börse (die genommene Gebühr sage ich dir, wenn der Auftrag abgeschlossen ist)
partner-card-sell = Du verkaufst: { $amount }
partner-card-get-minus-fee = Du erhältst etwa: { $amount }, abzüglich der Gebühr der Börse (die genommene Gebühr sage ich dir, wenn der Auftrag abgeschlossen ist)
partner-card-balance = Dein Guthaben: { $balance }
partner-withdraw-card-check = Nach „Bestätigen“ frage ich nach deiner PIN.
partner-trade-unknown = ⚠️ Die Börse hat nicht geantwortet, auch nicht auf die Wiederholung mit demselben Auftragsschlüssel, daher weiß ich noch nicht, ob dein Auftrag ({ $summary }) angekommen ist. Der Schlüssel sorgt dafür, dass er nie doppelt ausgeführt wird. Ich prüfe es und sage dir Bescheid.
partner-order-not-signed-up = Du bist noch nicht registriert, daher wurde nichts beauftragt. Sende /start, um dich zu registrieren.
partner-pin-ask = Bestätigt. Gib jetzt deine 6-stellige PIN ein (ich lösche deine Nachricht sofort). Ohne sie wird nichts ausgezahlt; /cancel bricht hier ab.
partner-pin-format = Bitte gib deine 6-stellige PIN ein (nur Ziffern).
partner-pin-awaited = Schon bestätigt: Gib jetzt deine 6-stellige PIN ein.
partner-pin-wrong = Diese PIN ist falsch. Verbleibende Versuche, bevor Auszahlungen für 15 Minuten gesperrt werden: { $left }.
partner-pin-locked = 🔒 Zu viele falsche PINs: Auszahlungen sind bis { $time } gesperrt. Es wurde nichts ausgezahlt. Versuche es danach erneut mit /withdraw.
partner-pin-late = Das hat zu lange gedauert, darum habe ich die Auszahlung abgebrochen. Es wurde nichts ausgezahlt. Hol dir mit /withdraw ein neues Angebot.
partner-pin-not-set = Du hast noch keine PIN, darum habe ich die Auszahlung abgebrochen. Es wurde nichts ausgezahlt. Setze eine mit /pin und zahle dann erneut aus.
partner-pin-checking = Ich prüfe deine PIN und gebe den Auftrag an die Börse…

## Partner mode: /start (sign-up), the KYC gate, /verify, /help

help-text-partner =
    Was ich kann:
    /start – registrieren oder sehen, wo deine Verifizierung steht
    /home – wo du stehst: Guthaben, heutige Kurse, offene Aufträge
    /verify – deine Identität mit einem Share-Token verifizieren
    /me, /profile – dein Profil, und es ändern
    /balance – deine Guthaben
    /prices – Paare und Kurse; /price btc für einen
    /buy, /sell – Krypto gegen Euro handeln
    /withdraw – Euro auf dein Bankkonto (mit deiner PIN)
    /deposit – wie du Euro einzahlst
    /banks – deine Bankkonten
    /transactions – deine Transaktionen; /tx ID für eine
    /limits – deine Ein- und Auszahlungslimits
    /recurring – einen festen Betrag nach Plan kaufen
    /notifications – Benachrichtigungen, Ruhezeit, Tagesübersicht
    /safety – Wartezeit neuer Bankkonten, eigene Limits
    /pin – deine PIN ändern
    /freeze – alle Geldaktionen sofort stoppen (ohne PIN)
    /language – Sprache ändern
    /cancel – den aktuellen Vorgang abbrechen
command-verify = Identität verifizieren
command-profile = Profil ändern
partner-welcome-back = Willkommen zurück, { $name }!
signup-intro = Willkommen, { $name }! 👋 Lass uns dein Konto eröffnen: ein paar Fragen, etwa zwei Minuten. Mit /cancel kannst du jederzeit abbrechen.
signup-ask-email = Wie lautet deine E-Mail-Adresse?
signup-bad-email = Das sieht nicht nach einer E-Mail-Adresse aus. Bitte schick sie so: name@example.com.
signup-ask-name = Dein Vorname, wie im Ausweis?
signup-ask-surname = Und dein Nachname?
signup-bad-name = Bitte schick den Namen wie im Ausweis: Buchstaben, dazwischen Leerzeichen, Bindestriche, Apostrophe oder Punkte, höchstens 64 Zeichen.
signup-ask-phone = Deine Telefonnummer: tippe unten auf die Schaltfläche, um sie zu teilen, oder schreib sie mit Ländervorwahl (etwa +49 151 23456789).
signup-share-phone = 📱 Meine Telefonnummer teilen
signup-phone-hint = Bitte tippe unten auf „Meine Telefonnummer teilen“ oder schreib deine Nummer mit Ländervorwahl.
signup-contact-not-yours = Das ist der Kontakt von jemand anderem. Bitte teile deine eigene Nummer mit der Schaltfläche unten oder tippe sie ein.
signup-bad-phone = Mit dieser Telefonnummer kann ich nichts anfangen. Bitte schreib sie mit Ländervorwahl, etwa +49 151 23456789.
signup-phone-ok = Telefonnummer: { $phone }.
signup-ask-consent = Bitte lies unsere Bedingungen (Version { $version }): tippe auf „Bedingungen lesen“ oder öffne { $url }. Stimmst du ihnen zu?
signup-read-terms = 📄 Bedingungen lesen
signup-consent-agree = ✅ Ich stimme zu
signup-consent-decline = ❌ Ich stimme nicht zu
signup-consent-tap = Bitte tippe oben auf „Ich stimme zu“ oder „Ich stimme nicht zu“.
signup-consent-declined = Ohne deine Zustimmung zu den Bedingungen kann ich kein Konto für dich eröffnen. Es wurde nichts gespeichert. Schick /start, wenn du es dir anders überlegst.
signup-ask-pin = Wähle jetzt eine 6-stellige PIN. Du brauchst sie für Auszahlungen. Ich lösche deine Nachricht sofort.
signup-ask-pin-again = Bitte gib dieselbe PIN noch einmal ein.
signup-bad-pin = Eine PIN hat genau 6 Ziffern. Bitte versuch es noch einmal.
signup-weak-pin = Diese PIN ist zu leicht zu erraten: { $reason ->
    [same] alle Ziffern sind gleich.
    [run] die Ziffern zählen der Reihe nach auf- oder abwärts.
   *[common] sie gehört zu den PINs, die am häufigsten gewählt werden.
  } Bitte wähle eine andere.
signup-pin-mismatch = Die beiden PINs sind verschieden. Fangen wir mit der PIN noch einmal an.
signup-creating = Dein Konto wird eröffnet…
signup-done = Dein Konto für { $email } ist eröffnet. ✅
signup-email-taken = Die Börse hat bereits ein Konto für { $email }. Schick /start, um dich mit einer anderen E-Mail-Adresse zu registrieren, oder wende dich an { $support }, wenn die Adresse dir gehört und du das Konto nicht erreichst.
signup-refused = Die Börse hat das Konto nicht eröffnet: { $reason } Schick /start, um es noch einmal zu versuchen, oder wende dich an { $support }.
signup-unavailable = Die Börse war nicht erreichbar, es wurde kein Konto eröffnet. Bitte schick in ein paar Minuten noch einmal /start.
signup-required = Du hast noch kein Konto bei uns. Schick /start, um dich zu registrieren.
kyc-passed = Deine Identität ist verifiziert: alle Befehle stehen dir offen. Schick /help, um sie zu sehen.
kyc-pending = Deine Identität wird geprüft. Ich schreibe dir, sobald die Prüfung abgeschlossen ist.
kyc-not-started = Deine Identität ist noch nicht verifiziert. Verifiziere sie bei unserem Partner für Identitätsprüfung und schick dann /verify mit dem Share-Token, das du dort bekommst.
kyc-refused = Deine Identitätsprüfung war nicht erfolgreich, daher kann ich dein Konto nicht bedienen. Bitte wende dich an { $support }.
kyc-edd-required = Deine Identität ist verifiziert, aber die Börse braucht weitere Unterlagen von dir (erweiterte Sorgfaltsprüfung), bevor sie dich bedienen kann. Bitte wende dich an { $support }.
kyc-unknown = Deine Verifizierung ist in einem Zustand, den ich noch nicht lesen kann, daher kann ich dein Konto noch nicht bedienen. Bitte wende dich an { $support }.
kyc-changed = Neuigkeiten zu deiner Verifizierung.
verify-ask-token = Füge das Share-Token deines Anbieters für Identitätsprüfung ein. Ich lösche deine Nachricht sofort. (/cancel zum Abbrechen)
verify-bad-token = Das sieht nicht nach einem Share-Token aus. Kopiere das ganze Token von deinem Verifizierungsanbieter und schick noch einmal /verify.
verify-imported = Deine Verifizierungsdaten wurden an die Börse übergeben.
verify-refused = Die Börse hat das Token nicht angenommen: { $reason } Prüfe das Token und schick noch einmal /verify, oder wende dich an { $support }.
verify-group-deleted = Ich habe deine Nachricht gelöscht: Ein Share-Token gehört nur in unseren privaten Chat, wo niemand sonst es lesen kann. Öffne ihn unten und schick dort /verify. Falls die Gruppe das Token gesehen haben könnte, hol dir vorher ein neues bei deinem Verifizierungsanbieter.
verify-group-not-deleted = ⚠️ Ich darf in dieser Gruppe keine Nachrichten löschen, daher steht dein Share-Token hier noch für alle lesbar. Betrachte es als gesehen: Hol dir ein neues Token bei deinem Verifizierungsanbieter und schick es mir in unserem privaten Chat mit /verify. Das Token oben habe ich nicht verwendet.
verify-unavailable = Die Börse war nicht erreichbar, es wurde nichts importiert. Bitte schick in ein paar Minuten noch einmal /verify.
## Partnermodus: Felder, deren Form die Börse nicht festlegt (ui/fields.ts)

fields-label-amount = Betrag
fields-label-balance = Guthaben
fields-label-currency = Währung
fields-label-iban = IBAN
fields-label-bic = BIC
fields-label-beneficiary = Empfänger
fields-label-reference = Verwendungszweck
fields-label-bank = Bank
fields-label-state = Zustand
fields-label-status = Status
fields-label-created = Erstellt
fields-label-updated = Geändert
fields-label-price = Preis
fields-label-pair = Paar
fields-label-fee = Gebühr
fields-label-name = Name
fields-label-type = Art
fields-label-available = Verfügbar
fields-label-reserved = Reserviert
fields-label-total = Gesamt
fields-label-eur-value = Wert in EUR
fields-label-value = Wert
fields-label-fiat-amount = Betrag in EUR
fields-label-code = Kürzel
fields-label-base-currency = Währung
fields-label-quote-currency = Preis in
fields-label-date = Datum
fields-label-time = Zeitpunkt
fields-label-id = Nummer
fields-label-user-id = Kundennummer
fields-label-crypto-amount = Kryptobetrag
fields-label-fee-currency = Gebührenwährung
fields-label-miner-fee = Netzwerkgebühr
fields-label-address = Adresse
fields-label-note = Hinweis
fields-label-daily = Pro Tag
fields-label-monthly = Pro Monat
fields-label-day-used = Heute genutzt
fields-label-month-used = Diesen Monat genutzt
fields-label-decimals = Nachkommastellen
fields-label-email = E-Mail
fields-label-first-name = Vorname
fields-label-surname = Nachname
fields-label-phone = Telefon
fields-label-birth-date = Geburtsdatum
fields-label-building = Hausnummer
fields-label-city = Ort
fields-label-postal-code = Postleitzahl
fields-label-country = Land
fields-label-kyc = Identitätsprüfung
fields-label-edd = Erweiterte Prüfung
fields-label-limit = Limit
fields-label-spent = Genutzt
fields-label-tier = Stufe
fields-label-buy = Kauf
fields-label-sell = Verkauf
fields-label-minimum = Mindestbetrag
fields-label-verified = Verifiziert
fields-kind-fiat = Geld (Fiat)
fields-kind-crypto = Krypto
fields-kind-other = andere
status-active = aktiv
status-inactive = inaktiv
status-blocked = gesperrt
status-closed = geschlossen
status-verified = verifiziert
status-unverified = nicht verifiziert
status-passed = bestanden
status-pending = in Bearbeitung
status-failed = fehlgeschlagen
status-declined = abgelehnt
status-not-started = noch nicht begonnen
status-not-required = nicht nötig
status-required = nötig
status-confirmed = bestätigt
status-done = erledigt
status-cancelled = storniert
status-expired = abgelaufen
status-paused = pausiert
status-ended = beendet
status-listed = aufgeführt
status-basic = Basis
status-unknown = unbekannt
fields-yes = ja
fields-no = nein
fields-more-details = … und { $count ->
    [one] eine weitere Angabe
   *[other] { $count } weitere Angaben
  }
fields-more-items = … und { $count ->
    [one] eines mehr
   *[other] { $count } weitere
  }
fields-page = Seite { $page }
fields-no-more = Mehr gibt es nicht.
fields-button-prev = ‹ Neuere
fields-button-next = Ältere ›

## Partnermodus: Befehle für Kunden

partner-not-linked = Du hast noch kein Konto bei uns. Schick /start, um dich zu registrieren.
partner-balance-title = 💼 <b>Deine Guthaben</b>
partner-balance-empty = Die Börse zeigt noch kein Guthaben für dich.
partner-limits-title = 📏 <b>Deine Limits</b>
limits-day-ceiling = Pro Tag: bis { $ceiling }
limits-month-ceiling = Pro Monat: bis { $ceiling }
partner-limits-none = Die Börse zeigt hier kein Limit.
partner-prices-none = Die Börse zeigt gerade keine Kurse.
partner-prices-time = Kurse vom { $time }
partner-price-line = { $code }: { $price }
partner-prices-pairs = Ebenfalls gehandelt, gerade ohne Kurs: { $pairs }
partner-price-title = 📈 <b>{ $code }</b>
partner-price-usage = Welche Währung? Zum Beispiel: /price btc
partner-price-unknown = Die Börse nennt keinen Kurs für { $code }. Paare: { $pairs }
partner-deposit-title = 🏦 <b>So zahlst du Euro ein</b>
    Überweise mit genau diesen Angaben (tippe auf einen Wert, um ihn zu kopieren):
partner-deposit-title-other = 🏦 <b>So zahlst du ein</b>
    Überweise mit genau diesen Angaben (tippe auf einen Wert, um ihn zu kopieren):
partner-deposit-reference-note = Übernimm den Verwendungszweck genau so in deine Überweisung, damit das Geld auf deinem Konto ankommt.
partner-deposit-none = Die Börse gibt gerade keine Einzahlungsanweisungen. Bitte versuch es später noch einmal.
partner-deposit-girocode = Scanne diesen Code in deiner Banking-App, um die Überweisung auszufüllen.
partner-transactions-title = 📜 <b>Deine Transaktionen</b>
partner-transactions-none = Du hast noch keine Transaktionen.
partner-transactions-hint = Schick /tx und eine Nummer für eine Transaktion, z. B. /tx { $id } für deine neueste.
partner-tx-bad-id = Welche Transaktion? Schick /tx und ihre Nummer, so wie /transactions sie zeigt.
partner-tx-not-found = Die Börse kennt keine Transaktion { $id } von dir.
partner-tx-title = 📄 <b>Transaktion { $id }</b>
partner-tx-empty = Die Börse sendet keine Einzelheiten dazu.
partner-me-title = 👤 <b>Dein Profil</b>
partner-me-empty = Die Börse sendet keine Profilangaben.
partner-me-hint = Um Name, Telefon oder Adresse zu ändern, schick /profile.
partner-profile-choose = Was möchtest du ändern?
partner-profile-button-name = Vorname
partner-profile-button-surname = Nachname
partner-profile-button-phone = Telefon
partner-profile-button-address = Adresse
partner-profile-ask-name = Dein neuer Vorname? (/cancel bricht ab)
partner-profile-ask-surname = Dein neuer Nachname? (/cancel bricht ab)
partner-profile-name-invalid = Bitte schick den Namen wie im Ausweis: Buchstaben, dazwischen Leerzeichen, Bindestriche, Apostrophe oder Punkte, höchstens 64 Zeichen.
partner-profile-ask-phone = Deine neue Telefonnummer mit Ländervorwahl, z. B. +49 151 23456789? (/cancel bricht ab)
partner-profile-ask-street = Deine Straße?
partner-profile-ask-building = Die Hausnummer?
partner-profile-ask-postal = Die Postleitzahl?
partner-profile-ask-city = Der Ort?
partner-profile-ask-country = Das Land deiner Adresse als dreibuchstabiger Code (z. B. DEU, AUT, FRA)? (/cancel bricht ab)
partner-profile-empty = Bitte schick Buchstaben oder Ziffern.
partner-profile-characters = Bitte schick es ohne die Zeichen < > { "{" } { "}" }.
partner-profile-too-long = Das ist zu lang. Bitte schick eine kürzere Angabe.
partner-profile-phone-invalid = Mit dieser Telefonnummer kann ich nichts anfangen. Schick sie mit + und Ländervorwahl, z. B. +49 151 23456789.
partner-profile-postal-invalid = Das ist keine Postleitzahl für { $country }. Bitte schick sie noch einmal, geschrieben wie { $example }.
partner-profile-country-invalid = Bitte schick den dreibuchstabigen Ländercode, z. B. DEU für Deutschland.
partner-profile-too-many-tries = Das hat nicht geklappt. Nichts wurde geändert; schick /profile, um neu zu beginnen.
partner-profile-refused = Die Börse hat dein Profil nicht geändert: { $message }
partner-profile-saved = ✅ <b>Gespeichert.</b> Dein Profil jetzt:
partner-banks-view-title = 🏦 <b>Bankkonto</b>
partner-banks-view-empty = Die Börse sendet keine Angaben zu diesem Konto.
partner-banks-gone = Dieses Bankkonto gibt es nicht mehr (auf einem anderen Gerät entfernt?). Schick /banks für die Liste.
partner-banks-removed = 🗑 Entfernt: { $bank }
partner-banks-add-intro = Lass uns dein Bankkonto hinzufügen: Name, IBAN und BIC. Falls das hier nicht klappt, wende dich an { $contact }.
partner-banks-add-summary =
    🏦 <b>Dieses Bankkonto hinzufügen?</b>

    Bank: <b>{ $name }</b>
    IBAN: <code>{ $iban }</code>
    BIC: <code>{ $bic }</code>
partner-banks-add-gone = Die Börse lässt Bankkonten auf diesem Weg nicht mehr hinzufügen. Bitte wende dich an { $contact }.
partner-banks-added = ✅ <b>Hinzugefügt</b>: { $name }, { $iban }
partner-banks-added-details =
    Referenznummer: <code>{ $reference }</code>
    Status: { $state }
partner-banks-added-unlisted = ✅ <b>Hinzugefügt</b>: { $name }, { $iban }. Die Börse führt es noch nicht auf; /banks zeigt es samt Status, sobald sie es tut.

## Partnermodus: der Operator-Schalter (nur OPERATOR_IDS)

operator-master-title = 🏛 Master-Guthaben
operator-master-line = • { $amount }
operator-master-unavailable = • { $currency }: gerade nicht lesbar
operator-master-usage = Schick /master, /master eur oder /master alert eur 1000.
operator-master-unknown = Die Börse führt kein Master-Guthaben in { $currency }.
operator-alert-title = 🔔 Warnungen bei niedrigem Guthaben:
operator-alert-line = • unter { $amount } ({ $state })
operator-alert-armed = aktiv
operator-alert-fired = ausgelöst, wartet, bis das Guthaben wieder darüber liegt
operator-alert-none = Keine Warnung bei niedrigem Guthaben gesetzt. Beispiel: /master alert eur 1000
operator-alert-usage = Schick /master alert, eine Währung und einen Betrag, z. B. /master alert eur 1000 (oder /master alert eur aus).
operator-alert-set = 🔔 Gesetzt: Die Operatoren erfahren es, wenn das Master-Guthaben unter { $amount } fällt. Jetzt sind es { $balance }.
operator-alert-removed = 🔕 Die Warnung für { $currency } ist entfernt.
operator-alert-not-set = Für { $currency } ist keine Warnung gesetzt.
operator-alert-notice = ⚠️ Das Master-Guthaben beträgt { $balance } und liegt unter der Warnschwelle von { $threshold }.
operator-user-usage = Schick /user und die ID oder E-Mail eines Partnerkunden, z. B. /user 42.
operator-user-not-found = Kein Partnerkunde { $user } gefunden.
operator-user-title = 👤 <b>Partnerkunde { $id }</b> (Telegram: { $telegram })
operator-alltx-title = 📜 <b>Transaktionen aller Kunden</b>
operator-alltx-none = Es gibt noch keine Transaktionen.
operator-pairs-title = 🔀 <b>Paare</b>
operator-currencies-title = 💱 <b>Währungen</b>
operator-list-empty = Die Börse führt hier nichts.

## Zeitzone (einmal gefragt, für Ruhezeiten, die Tagesübersicht und Sparpläne)
time-zone-ask = 🕰 In welcher Zeitzone bist du? Schick eine Stadt (z. B. <i>Berlin</i>, <i>New York</i>) oder deinen UTC-Versatz (z. B. <i>+2</i>, <i>UTC-5</i>).
time-zone-unknown = Diese Zeitzone kenne ich nicht. Schick eine Stadt wie <i>Lissabon</i> oder <i>München</i> oder einen UTC-Versatz wie <i>+1</i> oder <i>UTC-3:30</i>. (/cancel zum Abbrechen)
time-zone-saved = ✅ Zeitzone: { $zone } ({ $offset }). Deine Uhrzeit jetzt: { $time }.

## Benachrichtigungen: Modi, Ruhezeit, Tagesübersicht
notify-menu-title = 🔔 <b>Benachrichtigungen</b>
notify-menu-digest-hour = ☀️ Tagesübersicht um: { $time }
notify-menu-quiet = 🌙 Ruhezeit: { $hours }
notify-menu-zone = 🌍 Zeitzone: { $zone } ({ $offset }, jetzt { $time })
notify-menu-zone-none = 🌍 Zeitzone: noch nicht festgelegt, die Uhrzeiten hier sind also UTC. Leg deine mit „🌍 Zeitzone ändern“ unten oder /notifications zone Berlin fest (ich frage auch danach, wenn du eine Ruhezeit oder eine Stunde für die Tagesübersicht wählst).
notify-menu-explained = Lautlos heißt: Die Nachricht kommt ohne Ton. In der Ruhezeit warten Preisalarme und die Tagesübersicht und kommen danach in einer Nachricht; Auftragsergebnisse und Sicherheitshinweise kommen immer sofort.
notify-button-quiet-off = 🌙 Keine Ruhezeit
notify-button-zone = 🌍 Zeitzone ändern
notify-button-quiet-other = 🌙 Andere Zeiten…
notify-quiet-ask-from = 🌙 Ab wie viel Uhr soll ich dich in Ruhe lassen (deine Zeit, { $zone })? Tipp eine Uhrzeit an oder schreib eine volle Stunde von 0 bis 23.
notify-quiet-ask-to = 🌙 Ruhe ab { $from }. Bis wie viel Uhr (deine Zeit, { $zone })?
notify-quiet-hour-again = Bitte schreib eine volle Stunde von 0 bis 23 (deine Zeit, { $zone }), zum Beispiel 22 oder 7.
notify-quiet-same-hour = Das Ende muss eine andere Stunde sein als der Anfang (deine Zeit, { $zone }).
notify-usage = Das habe ich nicht verstanden. Beispiele: /notifications ruhezeit 22 7, /notifications ruhezeit aus, /notifications zeitzone Berlin.
notify-held-header = 🌙 Während deiner Ruhezeit ({ $count ->
    [one] eine Nachricht
   *[other] { $count } Nachrichten
  }):
digest-title = ☀️ Deine Tagesübersicht
digest-portfolio = 💼 Portfolio: { $value }
digest-portfolio-change = 💼 Portfolio: { $value } ({ $difference }, { $change } seit der gestrigen Übersicht)
digest-prices = 📈 Preise, die du beobachtest (24 h):
digest-fired = 🔔 Ausgelöste Alarme: { $count }
digest-prices-unavailable = 📈 Preise sind gerade nicht abrufbar; /prices zeigt sie, sobald die Börse wieder antwortet.
digest-settled = ✅ Abgeschlossene Aufträge: { $count }
digest-hint = Uhrzeit ändern oder Tagesübersicht ausschalten: /notifications.

## Sparpläne (/recurring)
recurring-off = Sparpläne sind in diesem Bot ausgeschaltet.
recurring-empty =
    🔁 Du hast noch keinen Sparplan (bis zu { $max }). So legst du einen an:
    /recurring btc 50 täglich 9
    /recurring eth 25 wöchentlich montag 18
    /recurring btc 100 monatlich letzter 9 bis { $date }
    /recurring btc 100 monatlich 15 8 12 mal
recurring-list-title = 🔁 Deine Sparpläne ({ $count } von { $max }). Einen neuen legst du mit /recurring btc 50 täglich 9 an.
recurring-bad-usage =
    Sag mir die Währung, den Betrag in EUR, den Rhythmus und die Stunde, zum Beispiel:
    /recurring btc 50 täglich 9
    /recurring eth 25 wöchentlich montag 18
    /recurring btc 100 monatlich 15 9 (ein Tag von 1 bis 28 oder letzter)
    Wahlweise ein Ende: … 12 mal oder … bis { $date }.
recurring-bad-amount = Diesen Betrag kann ich nicht lesen: schreib ihn wie 50 oder 12,50 (EUR).
recurring-bad-schedule = Sag, wie oft: täglich, wöchentlich (mit Wochentag) oder monatlich (mit Tag).
recurring-bad-weekday = An welchem Wochentag? Zum Beispiel montag oder fr.
recurring-bad-day = An welchem Tag des Monats? Ein Tag von 1 bis 28 oder letzter.
recurring-bad-hour = Zu welcher Stunde? Eine volle Stunde von 0 bis 23, zum Beispiel 9 oder 18.
recurring-bad-end = Das Ende lautet „12 mal“ oder „bis { $date }“.
recurring-bad-currency = { $code } kannst du hier nicht für EUR kaufen. /prices zeigt, was geht.
recurring-new-button = ➕ Neuer Sparplan
recurring-guide-currency = 🔁 Ein neuer Sparplan. Welche Währung möchtest du kaufen? Tipp sie an oder schreib ihr Kürzel.
recurring-guide-currency-unknown = Diese Währung kenne ich nicht. Tipp auf eine der Schaltflächen oder schreib ein Kürzel wie BTC.
recurring-guide-amount = Für wie viel Euro { $code } jedes Mal? Schreib den Betrag, zum Beispiel 50.
recurring-guide-amount-minimum = Für wie viel Euro { $code } jedes Mal? Mindestens { $minimum }. Schreib den Betrag, zum Beispiel 50.
recurring-guide-below-minimum = Das liegt unter dem Mindestbetrag der Börse von { $minimum } pro Kauf. Bitte schreib einen höheren Betrag.
recurring-guide-every = Wie oft?
recurring-guide-tap = Bitte tipp auf eine der Schaltflächen (oder /cancel zum Abbrechen).
recurring-guide-weekday = An welchem Wochentag?
recurring-guide-day = An welchem Tag des Monats? Tipp einen an oder schreib einen Tag von 1 bis { $last }.
recurring-guide-day-again = Bitte schreib einen Tag von 1 bis { $last } oder tipp auf „Letzter Tag“.
recurring-guide-hour = Um wie viel Uhr (deine Zeit, { $zone })? Tipp eine Uhrzeit an oder schreib eine volle Stunde von 0 bis 23.
recurring-guide-hour-again = Bitte tipp eine Uhrzeit an oder schreib eine volle Stunde von 0 bis 23 (deine Zeit, { $zone }).
recurring-guide-end = Soll der Plan von selbst enden?
recurring-guide-runs = Nach wie vielen Ausführungen soll er enden? Schreib eine Zahl, zum Beispiel 12.
recurring-guide-runs-again = Bitte schreib eine ganze Zahl von 1 bis 999.
recurring-guide-until = Bis zu welchem Datum? Schreib es so: { $date }.
recurring-guide-until-again = Dieses Datum kann ich nicht lesen. Bitte schreib es so: { $date }.
recurring-guide-until-past = Dieses Datum ist heute oder schon vorbei. Bitte schreib ein späteres.
recurring-guide-button-daily = Jeden Tag
recurring-guide-button-weekly = Jede Woche
recurring-guide-button-monthly = Jeden Monat
recurring-guide-button-last-day = Letzter Tag
recurring-guide-button-no-end = Kein Ende
recurring-guide-button-runs = Nach einer Anzahl
recurring-guide-button-until = Bis zu einem Datum
recurring-below-minimum = Der kleinste Kauf von { $code } ist { $minimum }, also braucht ein Sparplan mindestens so viel pro Ausführung. Schick /recurring noch einmal mit einem größeren Betrag.
recurring-end-past = Der { $date } ist schon vorbei. Schick /recurring noch einmal mit einem späteren Enddatum oder ohne.
recurring-end-before-first = Der Sparplan würde am { $date } enden, vor seiner ersten Ausführung ({ $first }). Schick /recurring noch einmal mit einem späteren Enddatum oder ohne.
schedule-daily = jeden Tag um { $time }
schedule-weekly = jeden { $weekday } um { $time }
schedule-monthly = am { $day }. jedes Monats um { $time }
schedule-monthly-last = am letzten Tag jedes Monats um { $time }
recurring-plan-title = { $amount } in { $code } { $schedule }
recurring-end-runs = Endet nach { $runs } Ausführungen.
recurring-end-until = Endet am { $date }.
recurring-card =
    🔁 Neuer Sparplan: { $title }
    Zeitzone: { $zone }
    Erste Ausführung: { $first }
recurring-card-spread = Die Ausführungen gehen innerhalb von { $minutes } Minuten nach der vollen Stunde raus, jeder Plan zu seiner eigenen Minute.
recurring-card-partner = Bei jeder Ausführung kaufe ich ohne weitere Frage von deinem EUR-Guthaben und sage dir, was passiert ist. In /recurring kannst du pausieren, aussetzen oder beenden.
recurring-card-account = Bei jeder Ausführung erinnere ich dich mit einem Angebots-Knopf; ohne dein Bestätigen auf dieser Karte wird nichts gekauft.
recurring-confirm-button = ✅ Bestätigen
recurring-cancel-button = ✖️ Abbrechen
recurring-card-cancelled = Abgebrochen: kein Sparplan angelegt.
recurring-card-gone = Diese Karte gilt nicht mehr. Fang mit /recurring neu an.
recurring-not-yours = Das ist nicht deine Karte.
recurring-already = Diesen Sparplan gibt es schon: /recurring zeigt ihn.
recurring-limit = Du hast schon { $max } Sparpläne, mehr geht nicht. Beende zuerst einen in /recurring.
recurring-created = ✅ Sparplan angelegt: { $title }. /recurring zeigt ihn.
recurring-next = Nächste Ausführung: { $when }
recurring-skip-marked = ⏭ Die nächste Ausführung wird ausgesetzt.
recurring-state = { $state ->
        [paused] ⏸ Pausiert
        [ended] Beendet
       *[other] Gestoppt
    }
recurring-last = Letzte Ausführung ({ $date }): { $outcome ->
        [bought] gekauft
        [skipped] ausgelassen
        [failed] fehlgeschlagen
        [unknown] Ergebnis offen
        [missed] verpasst (Bot offline)
        [skipped-once] einmal ausgesetzt
        [reminded] Erinnerung verschickt
        [confirmed] bestätigt
        [not-confirmed] nicht bestätigt
       *[other] läuft
    }
recurring-pause-button = ⏸ Pausieren
recurring-resume-button = ▶️ Fortsetzen
recurring-skip-button = ⏭ Nächste aussetzen
recurring-unskip-button = ↩️ Doch ausführen
recurring-stop-button = 🗑 Beenden
recurring-paused = Pausiert: keine Ausführungen, bis du fortsetzt.
recurring-resumed = Fortgesetzt ab dem nächsten Termin.
recurring-already-paused = Dieser Sparplan ist schon pausiert.
recurring-already-running = Dieser Sparplan läuft schon.
recurring-skipped-next = Die nächste Ausführung wird ausgesetzt.
recurring-unskipped = Die nächste Ausführung findet statt.
recurring-stopped = Endgültig beendet.
recurring-stop-ask = Diesen Sparplan endgültig beenden? Er läuft dann nicht mehr, und ein beendeter Sparplan lässt sich nicht fortsetzen.
recurring-stop-yes-button = 🗑 Ja, beenden
recurring-stop-keep-button = ↩️ Behalten
recurring-not-live = { $state ->
        [ended] Dieser Sparplan ist abgelaufen, also hat sich nichts geändert. Mit /recurring legst du einen neuen an.
       *[other] Dieser Sparplan ist beendet, also hat sich nichts geändert. Mit /recurring legst du einen neuen an.
    }
run-next = Nächste Ausführung: { $when }.
run-no-next = Der Sparplan ist zu Ende.
run-bought = 🔁 { $plan }: { $get } für { $pay } gekauft, zu { $rate } je { $code }.
run-skipped = 🔁 { $plan }: Die Ausführung vom { $date } wurde ausgelassen, nichts gekauft.
run-why-kyc = Deine Verifizierung ist nicht abgeschlossen (Status: { $status }). /verify zeigt dir, was zu tun ist.
run-why-no-account = Du hast noch kein Konto bei uns: /start richtet eins ein.
run-why-balance = Dein EUR-Guthaben ist { $balance }, die Ausführung braucht { $needed }. Lade es vor der nächsten Ausführung mit /deposit auf.
run-why-minimum = { $amount } liegt unter dem Mindestbetrag der Börse von { $minimum }. Beende diesen Plan und leg in /recurring einen mit höherem Betrag an.
run-why-closed = Der Kauf von { $code } ist an der Börse gerade ausgesetzt. Der Plan versucht es bei der nächsten Ausführung wieder.
run-why-rule = { $rule }
run-failed = 🔁 { $plan }: Die Börse hat den Auftrag vom { $date } abgelehnt, nichts gekauft. Der Plan versucht es bei der nächsten Ausführung wieder; in /recurring kannst du ihn pausieren oder beenden.
run-missed = 🔁 { $plan }: { $count } Ausführung(en) verpasst, während der Bot offline war ({ $dates }). Dafür wurde nichts gekauft; verpasste Ausführungen werden nie gesammelt nachgeholt.
run-reminder =
    🔁 Zeit für deinen Sparplan: { $plan }.
    Tipp unten für ein Angebot über { $amount } in { $code } und bestätige dann auf der Karte. Ohne dein Bestätigen wird nichts gekauft. Diese Erinnerung gilt bis { $until }.
run-reminder-button = 🛒 { $amount } in { $code } kaufen
run-not-confirmed = 🔁 { $plan }: Die Ausführung vom { $date } wurde nicht bestätigt, also wurde nichts gekauft.
command-recurring = Sparpläne
operator-plans-title = 🔁 Sparpläne: { $active } aktiv, { $paused } pausiert, { $ended } beendet oder gestoppt.
operator-plans-runs-title = Ausführungen der letzten 24 h:
operator-plans-no-runs = keine
operator-plans-outcome = { $outcome ->
        [bought] gekauft
        [skipped] ausgelassen
        [failed] fehlgeschlagen
        [unknown] Ergebnis offen
        [missed] verpasst (Bot offline)
        [skipped-once] einmal ausgesetzt
        [reminded] Erinnerung verschickt
        [confirmed] bestätigt
        [not-confirmed] nicht bestätigt
       *[other] läuft
    }: { $count }
operator-plans-failed-title = Fehlgeschlagen oder offen:
operator-plans-run = { $date } · Plan { $plan } · Telegram { $user } · { $outcome ->
        [bought] gekauft
        [skipped] ausgelassen
        [failed] fehlgeschlagen
        [unknown] Ergebnis offen
        [missed] verpasst (Bot offline)
        [skipped-once] einmal ausgesetzt
        [reminded] Erinnerung verschickt
        [confirmed] bestätigt
        [not-confirmed] nicht bestätigt
       *[other] läuft
    } · { $reason }
operator-plans-reason = { $reason ->
        [no-partner] Partnermodus nicht eingerichtet
        [no-account] kein Börsenkonto verknüpft
        [kyc] Identitätsprüfung nicht bestanden
        [closed] Währung geschlossen
        [minimum] unter dem Mindestbetrag
        [fee] Gebühr höher als der Betrag
        [balance] Guthaben zu gering
        [limit] Limit der Börse erreicht
        [frozen] Geldaktionen eingefroren
        [own-limit] eigenes Tageslimit des Nutzers
        [session-expired] Sitzung abgelaufen
       *[exchange] von der Börse abgelehnt (ihre Worte stehen im Log)
    }
operator-plans-user-title = 🔁 Sparpläne von Partnerkunde { $id } (Telegram { $telegram })
operator-plans-user-none = Keine Sparpläne.

## The safety net: saved addresses, the allowlist and its cooling-off, own daily caps (/addresses, /safety)
safety-refused-unsaved = 🛡 Deine Freigabeliste ist an: Geld geht nur an gespeicherte { $code }-Adressen, sobald ihre Wartezeit vorbei ist. Speichere diese Adresse mit /addresses add, oder schalte die Freigabeliste in /safety aus.
safety-refused-address-cooling = 🛡 Diese gespeicherte Adresse ist noch in ihrer Wartezeit: Du kannst ab { $time } an sie senden. Ich sage dir Bescheid, sobald sie bereit ist.
safety-refused-bank-cooling = 🛡 Dieses Bankkonto wurde gerade erst hinzugefügt und ist noch in seiner Wartezeit: Du kannst ab { $time } darauf auszahlen. Ich sage dir Bescheid, sobald es bereit ist.
safety-refused-own-limit = 🛡 Das ist mehr als dein selbst gesetztes Tageslimit ({ $cap } in 24 Stunden). Jetzt noch frei: { $left }. Nimm einen kleineren Betrag oder ändere das Limit in /safety (ein höheres Limit gilt 24 Stunden nach dem Setzen).
send-ask-address-saved = Wohin sollen die { $code } gehen? Tippe auf eine gespeicherte Adresse oder füge eine andere { $code }-Adresse ein. (/cancel zum Abbrechen)
send-address-not-saved = Diese { $code }-Adresse ist noch nicht gespeichert. Mit deiner Freigabeliste geht Geld nur an gespeicherte Adressen, sobald ihre Wartezeit vorbei ist. Jetzt speichern? (Oder füge eine andere Adresse ein; /cancel zum Abbrechen.)
send-address-not-saved-off = Diese { $code }-Adresse ist nicht gespeichert. Für das nächste Mal speichern (sie kann Geld empfangen, sobald ihre Wartezeit vorbei ist) oder einmal an sie senden?
send-button-send-once = ➡️ Ohne Speichern senden
send-button-save-address = 💾 Adresse speichern
addresses-ask-currency = Für welche Währung ist die Adresse? Tippe auf eine oder schreib ihr Kürzel. (/cancel zum Abbrechen)
addresses-ask-address = Schick mir die { $code }-Adresse, die ich speichern soll. Du kannst sie einfügen, auch als Zahlungslink (z. B. bitcoin:…). (/cancel zum Abbrechen)
addresses-ask-label = Gib dieser { $code }-Adresse einen Namen, den du wiedererkennst (bis zu { $max } Zeichen), z. B. „Mein Hardware-Wallet“.
addresses-bad-label = Bitte schick einen Namen mit 1 bis { $max } Zeichen, ohne < oder >.
addresses-not-saved = Es wurde nichts gespeichert.
addresses-full = Du hast schon so viele gespeicherte Adressen, wie ich aufbewahre. Entferne zuerst eine in /addresses. Es wurde nichts gespeichert.
addresses-saved = ✅ „{ $label }“ ({ $code }) gespeichert. Zu deiner Sicherheit kann sie ab <b>{ $time }</b> Geld empfangen; ich sage dir dann Bescheid.
addresses-relabelled = ✅ Diese { $code }-Adresse war schon gespeichert; sie heißt jetzt „{ $label }“. Sie kann ab { $time } Geld empfangen.
addresses-button-stale = Dieser Knopf ist nicht mehr aktiv. Schick /addresses, um neu zu beginnen.
addresses-button-add = ➕ Adresse hinzufügen
addresses-title = 📒 <b>Deine gespeicherten Adressen</b>
addresses-none = Noch keine. Füge eine mit dem Knopf unten hinzu oder speichere eine beim /send.
addresses-entry = • <b>{ $label }</b> · { $code }
    <code>{ $address }</code> ✅ bereit
addresses-entry-cooling = • <b>{ $label }</b> · { $code }
    <code>{ $address }</code> ⏳ bereit ab { $time }
addresses-button-remove = 🗑 { $label } · { $code }
addresses-allowlist-on = 🛡 Freigabeliste an: /send geht nur an diese Adressen, sobald sie bereit sind. Einstellungen: /safety
addresses-allowlist-off = Freigabeliste aus: /send geht an jede Adresse. Schalte sie in /safety an.
addresses-removed = Adresse entfernt.
addresses-gone = Diese Adresse war schon entfernt.
addresses-usable-now = ✅ Deine gespeicherte { $code }-Adresse „{ $label }“ ist bereit: Du kannst jetzt an sie senden.
banks-usable-now = ✅ Dein Bankkonto { $iban } ist bereit: Du kannst jetzt darauf auszahlen.
banks-cooling = 🛡 Zu deiner Sicherheit sind Auszahlungen auf dieses Konto ab { $time } möglich (seine Wartezeit). Ich sage dir dann Bescheid.
safety-code-why = 🔐 Diese Änderung schützt dein Geld, darum muss ich wissen, dass wirklich du es bist: Ich melde dich noch einmal an, und dein 2FA-Code beweist es.
safety-pin-ask = 🔐 Diese Änderung schützt dein Geld: Gib deine 6-stellige PIN ein (ich lösche deine Nachricht sofort). /cancel bricht hier ab.
safety-pin-format = Die PIN hat 6 Ziffern. Bitte gib sie noch einmal ein.
safety-pin-locked = 🔒 Zu viele falsche PINs: gesperrt bis { $time }. Es wurde nichts geändert.
safety-pin-not-set = Du hast noch keine PIN, darum wurde nichts geändert. Wende dich an den Support, um eine zu setzen.
safety-title = 🛡 <b>Sicherheit</b>
safety-allowlist-on = Freigabeliste: <b>an</b>. Geld geht nur an gespeicherte Adressen (/addresses) und an Bankkonten, sobald ihre Wartezeit vorbei ist.
safety-allowlist-off = Freigabeliste: <b>aus</b>. Sendungen gehen an jede Adresse; hier hinzugefügte Bankkonten warten ihre Wartezeit nur ab, solange sie an ist.
safety-allowlist-off-at = ⏳ Sie geht um { $time } aus (schalte sie wieder an, um das zu stoppen).
safety-cooling-line = Wartezeit neuer Adressen und Bankkonten: <b>{ $hours } h</b>
safety-cooling-shorter-at = ⏳ Sie wird um { $time } zu { $hours } h.
safety-caps-title = Deine eigenen Tageslimits (letzte 24 Stunden):
safety-cap-send = { $code } senden
safety-cap-withdraw = Auszahlen
safety-cap-buy = Kaufen
safety-cap-sell = Verkaufen
safety-cap-none = keins
safety-cap-raise-pending = (⏳ { $amount } ab { $time })
safety-hint = Limit setzen: /safety limit auszahlen { $large }, /safety limit senden btc { $small }, /safety limit kaufen aus. Wartezeit: /safety wartezeit 12. Ein niedrigeres Limit oder eine längere Wartezeit gilt sofort; alles Lockerere wartet und braucht deine Bestätigung.
safety-button-allowlist-off = Freigabeliste ausschalten
safety-button-allowlist-on = Freigabeliste einschalten
safety-button-hours = { $hours } h
safety-button-cap = 🔒 Tageslimit festlegen…
safety-guide-which = 🔒 Welches Tageslimit möchtest du festlegen? Es zählt die letzten 24 Stunden.
safety-guide-button-send = Krypto senden
safety-guide-tap = Bitte tipp auf eine der Schaltflächen (oder /cancel zum Abbrechen).
safety-guide-code = Sendungen welcher Kryptowährung? Schreib ihr Kürzel, zum Beispiel BTC.
safety-guide-code-again = Bitte schreib ein Währungskürzel wie BTC oder ETH.
safety-guide-amount = { $cap }: wie viel höchstens in 24 Stunden, in { $unit }? Schreib den Betrag oder tipp auf „Kein Limit“. Ein niedrigeres Limit gilt sofort, ein höheres oder keins erst 24 Stunden später.
safety-guide-amount-again = Bitte schreib einen Betrag in { $unit }, zum Beispiel 500, oder tipp auf „Kein Limit“.
safety-guide-button-off = Kein Limit
safety-not-changed = Es wurde nichts geändert.
safety-allowlist-off-later = ✅ Bestätigt. Deine Freigabeliste geht um { $time } aus, nach deiner aktuellen Wartezeit. Bis dahin bleibt sie an; schalte sie wieder an, um das zu stoppen.
safety-cooling-shorter-later = ✅ Bestätigt. Deine Wartezeit wird um { $time } zu { $hours } h, nach der aktuellen.
safety-allowlist-off-pending = Deine Freigabeliste ist schon zum Ausschalten vorgemerkt; die Zeit steht unten.
safety-allowlist-already-off = Deine Freigabeliste ist schon aus.
safety-allowlist-on-done = ✅ Freigabeliste an: Geld geht nur an gespeicherte Adressen, sobald ihre Wartezeit vorbei ist.
safety-cooling-range = Die Wartezeit kann { $min } bis { $max } Stunden lang sein.
safety-cooling-done = ✅ Wartezeit: { $hours } h für Adressen und Bankkonten, die du ab jetzt hinzufügst.
safety-cap-later = ✅ Notiert. Ein höheres Limit (oder keins) gilt ab { $time }, in 24 Stunden; bis dahin zählt das alte.
safety-cap-done = ✅ Limit gesetzt. Es gilt ab sofort.
safety-usage = Das habe ich nicht verstanden. Beispiele: /safety freigabeliste an, /safety wartezeit 24, /safety limit auszahlen { $large }, /safety limit senden btc { $small }, /safety limit verkaufen aus.
safety-allowlist-on-partner = Freigabeliste: <b>an</b>. Auszahlungen gehen nur an Bankkonten, deren Wartezeit vorbei ist (mit /banks hinzugefügte Konten warten sie ab).
safety-allowlist-off-partner = Freigabeliste: <b>aus</b>. Auszahlungen gehen an jedes deiner verifizierten Bankkonten, auch an gerade erst hinzugefügte.
safety-allowlist-on-done-partner = ✅ Freigabeliste an: Auszahlungen gehen nur an Bankkonten, deren Wartezeit vorbei ist.
safety-hint-partner = Limit setzen: /safety limit auszahlen { $large }, /safety limit kaufen 200, /safety limit verkaufen aus. Wartezeit: /safety wartezeit 12. Ein niedrigeres Limit oder eine längere Wartezeit gilt sofort; alles Lockerere wartet und braucht deine PIN.
settings-button-safety = 🛡 Sicherheit und Limits
command-addresses = Gespeicherte Adressen
command-safety = Freigabeliste und eigene Limits

## Security notices (always sent, never silent), Freeze, /unfreeze, /pin, the operator desk's freeze
security-freeze-button = 🧊 Einfrieren
security-freeze-hint = Warst du das nicht? Tippe auf Einfrieren: Jede Geldaktion stoppt sofort, ohne Code.
security-login = 🔐 Neue Anmeldung bei deinem Börsenkonto { $via ->
    [webapp] über die Mini-App
   *[other] in diesem Chat
  } am { $time }.
security-address-saved = 🔐 Neue { $currency }-Adresse gespeichert: { $label } ({ $address }). Senden dorthin ist ab { $time } möglich.
security-bank-added = 🔐 Bankkonto hinzugefügt: { $iban }. Auszahlungen dorthin sind ab { $time } möglich.
security-allowlist-on = 🔐 Die Freigabeliste ist an: Gesendet wird nur an gespeicherte Adressen nach ihrer Wartezeit.
security-allowlist-off = 🔐 Die Freigabeliste wurde ausgeschaltet. Das gilt ab { $time }; bis dahin wird nur an gespeicherte Adressen gesendet.
security-cooling-off = 🔐 Die Wartezeit neuer Adressen ändert sich am { $time } auf { $hours } h.
security-phrase-changed = 🔐 Dein Anti-Phishing-Satz wurde geändert oder entfernt.
security-remember-on = 🔐 „Passwort merken“ wurde eingeschaltet: Dein nächstes /login behält dein Passwort für schnelle Anmeldungen.
security-remember-off = 🔐 „Passwort merken“ wurde ausgeschaltet: Ein gemerktes Passwort ist vergessen.
security-limit-name = { $limit ->
    [send] das Senden von { $code }
    [withdraw] Auszahlungen
    [buy] Käufe
    [sell] Verkäufe
   *[other] Geldbewegungen
  }
security-limit-set = 🔐 Dein eigenes Tageslimit für { $limit } ist ab { $time } { $amount }.
security-limit-removed = 🔐 Dein eigenes Tageslimit für { $limit } ist ab { $time } aufgehoben.
security-large-outflow = 🔐 { $kind ->
    [send] Eine Sendung
   *[other] Eine Auszahlung
  } über { $amount } ist rausgegangen: mehr als die Hälfte deines eigenen Tageslimits.
security-pin-changed = 🔐 Deine PIN wurde geändert.
security-pin-reset = 🔐 Der Support hat deine PIN zurückgesetzt. Für Auszahlungen brauchst du eine neue: Setze sie mit /pin.
security-frozen-account = 🧊 { $by ->
    [operator] Der Support hat
   *[other] Du hast
  } die Geldaktionen deines Kontos eingefroren. Was ich getan habe: Jeder Kauf, Verkauf, jede Sendung und Auszahlung wird abgelehnt, offene Angebotskarten sind abgebrochen, du bist hier von der Börse abgemeldet und ein gemerktes Passwort ist vergessen.
security-frozen-partner = 🧊 { $by ->
    [operator] Der Support hat
   *[other] Du hast
  } die Geldaktionen deines Kontos eingefroren. Was ich getan habe: Jeder Kauf, Verkauf und jede Auszahlung wird abgelehnt und offene Angebotskarten sind abgebrochen.
freeze-how-account = Zum Auftauen: /unfreeze. Du meldest dich neu an (E-Mail, Passwort, 2FA-Code), und die Geldaktionen öffnen { $delay } später, hier angekündigt mit einem weiteren Einfrieren-Knopf.
freeze-how-partner = Zum Auftauen wende dich an den Support: { $support }.
security-unfreeze-scheduled = 🔓 Auftauen angefragt: Die Geldaktionen öffnen wieder am { $time }. Warst du das nicht, tippe jetzt auf Einfrieren, dann bleiben sie eingefroren.
security-unfrozen = 🔓 Deine Geldaktionen sind wieder offen: Kaufen, Verkaufen, Senden und Auszahlen gehen wie vorher. Hast du das nicht veranlasst, tippe auf Einfrieren.
security-delay-hours = { $hours ->
    [one] 1 Stunde
   *[other] { $hours } Stunden
  }
security-delay-minutes = { $minutes ->
    [one] 1 Minute
   *[other] { $minutes } Minuten
  }
freeze-refused = 🧊 Die Geldaktionen deines Kontos sind eingefroren, darum wurde nichts { $family ->
    [buy] gekauft
    [sell] verkauft
    [send] gesendet
   *[withdraw] ausgezahlt
  }. { $mode ->
    [partner] Nur der Support kann sie wieder öffnen: /unfreeze sagt dir, wie du ihn erreichst.
   *[account] /unfreeze sagt dir, wie du sie wieder öffnest.
  }
freeze-tapped = 🧊 Eingefroren.
freeze-already = 🧊 Deine Geldaktionen sind schon eingefroren; nichts hat sich geändert. /unfreeze sagt dir, wie du sie wieder öffnest.
freeze-not-frozen = Deine Geldaktionen sind nicht eingefroren. /freeze (oder Einfrieren unter jedem Sicherheitshinweis) stoppt sie sofort.
unfreeze-intro = Zum Auftauen melde dich zuerst neu an.
unfreeze-already = Das Auftauen läuft schon: Die Geldaktionen öffnen wieder am { $time }.
unfreeze-not-logged-in = Du bist nicht angemeldet, darum hat sich nichts geändert: Deine Geldaktionen bleiben eingefroren. Versuch /unfreeze noch einmal.
pin-ask-old = Gib deine aktuelle 6-stellige PIN ein (ich lösche deine Nachricht sofort). /cancel bricht hier ab.
pin-ask-new = Wähle jetzt eine neue 6-stellige PIN. Ich lösche deine Nachricht sofort.
pin-ask-first = Du hast noch keine PIN (der Support hat sie zurückgesetzt). Wähle eine neue 6-stellige PIN; ich lösche deine Nachricht sofort.
pin-wrong = Diese PIN ist falsch, darum hat sich nichts geändert. Versuche, bevor PINs für 15 Minuten gesperrt werden: { $left }. Versuch /pin noch einmal.
pin-locked = 🔒 Zu viele falsche PINs: gesperrt bis { $time }. Versuch /pin danach noch einmal.
pin-changed = ✅ Deine PIN ist geändert.
command-freeze = Alle Geldaktionen einfrieren (ohne Code)
command-pin = PIN ändern
operator-freeze-usage = Schick /freeze, /unfreeze oder /pinreset mit der ID oder E-Mail eines Partnerkunden, z. B. /freeze 42.
operator-user-not-linked = Partnerkunde { $user } hat keinen Chat mit diesem Bot.
operator-freeze-done = 🧊 Eingefroren: Partnerkunde { $user }. Seine Aufträge und Auszahlungen werden abgelehnt bis /unfreeze { $user }; er wurde informiert.
operator-unfreeze-done = 🔓 Aufgetaut: Partnerkunde { $user }. Er wurde informiert, mit einem Einfrieren-Knopf.
operator-unfreeze-not-frozen = Partnerkunde { $user } ist nicht eingefroren.
operator-pinreset-done = PIN von Partnerkunde { $user } zurückgesetzt. Er wurde informiert und setzt mit /pin eine neue.
